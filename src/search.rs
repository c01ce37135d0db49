//! Concrete search (`lpmc check --engine search`, and one engine of the portfolio):
//! random testing over the interpreter, guided by the program's own constants.
//!
//! Uniformly random inputs rarely hit a bug that needs one specific value (`i == 7`, a
//! constant of the program, an array bound). The oracle here draws from a dictionary of
//! the program's constants, their neighbours (c−1, c, c+1), their negations, the array
//! sizes and 0, mixed with small values first and wider ones later, over several seeds.
//! Values asked for a variable of a bounded type (a C integer, `_Bool`, an unsigned
//! nondet) are fitted to its range, so runs are rarely blocked by the range assumptions.
//! A draw that a later assumption bounds (`if (!(-8 <= y && y <= -3)) return 0;`,
//! `assume(0 < y)`) is answered inside the bound most of the time ([`draws`]), so runs
//! that draw in a loop get past their checks.
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
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

mod draws;
mod shapes;
pub(crate) use draws::{learn as learn_draws, DrawRanges, InRange};
use shapes::{luby, shape_of, shaped, Shape};

/// The settings of a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Steps of the first runs; the bounds of later runs are multiples of it, following
    /// the Luby sequence (1, 1, 2, 1, 1, 2, 4, …), up to [`SearchOptions::max_steps`].
    pub first_steps: usize,
    /// The largest step bound of a run (by default none: runs grow until the deadline).
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
            first_steps: 8_000_000,
            max_steps: usize::MAX,
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

/// Where the values of one shaped site come from: a `u` of a node, or the cells of an
/// array with arbitrary contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum SiteKey {
    Undef(NodeId, u32),
    Array(ArrayId),
}

/// A shaped site's state in a run: its shape (from its second value on), its first
/// value, how many it gave.
#[derive(Clone, Debug)]
struct SiteDraws {
    shape: Option<Shape>,
    base: BigInt,
    count: i64,
}

/// An oracle drawing from the dictionary and from ranges that widen with `round`; a site
/// that gives several values gives them in its own [`Shape`].
#[derive(Clone, Debug)]
struct GuidedOracle<'a> {
    cfg: &'a Cfg,
    dict: &'a [BigInt],
    rng: SmallRng,
    /// Largest magnitude of the "small" draws.
    small: i64,
    /// Probability of a dictionary value.
    p_dict: f64,
    /// The run's number (which shape each site takes).
    run: u64,
    /// The sites asked so far.
    sites: BTreeMap<SiteKey, SiteDraws>,
    /// How many of them have a shape: the next one's place in the rotation.
    shaped_sites: usize,
}

impl<'a> GuidedOracle<'a> {
    fn new(cfg: &'a Cfg, dict: &'a [BigInt], run: u64, seed: u64) -> Self {
        GuidedOracle {
            cfg,
            dict,
            rng: SmallRng::seed_from_u64(seed),
            // Small values first: ±2 at first, up to ±1000.
            small: (2 + (run as i64) / 4).min(1000),
            p_dict: if run % 2 == 0 { 0.6 } else { 0.3 },
            run,
            sites: BTreeMap::new(),
            shaped_sites: 0,
        }
    }

    /// The next value of `key` (cell `index` of an array). A site's first value is a
    /// guided draw; a `u` that gives a second one, and an array at once, take a shape
    /// (sites asked once, such as a program's scalar inputs, do not use up the rotation).
    fn shaped_draw(&mut self, key: SiteKey, index: Option<i64>) -> BigInt {
        if !self.sites.contains_key(&key) {
            let base = self.draw();
            let scalar = index.is_none();
            self.sites.insert(
                key,
                SiteDraws {
                    shape: None,
                    base: base.clone(),
                    count: i64::from(scalar),
                },
            );
            if scalar {
                return base;
            }
        }
        let site = self
            .sites
            .get_mut(&key)
            .expect("the site was inserted above");
        let shape = *site.shape.get_or_insert_with(|| {
            self.shaped_sites += 1;
            shape_of(self.run, self.shaped_sites - 1)
        });
        let k = index.unwrap_or(site.count);
        site.count += 1;
        if let Some(v) = shaped(shape, &site.base, k) {
            return v;
        }
        match shape {
            Shape::Wide => BigInt::from(self.rng.gen_range(-(1i64 << 31)..(1i64 << 31))),
            _ => self.draw(),
        }
    }

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
}

/// The range a value at this site is assumed to lie in: the target of a havoc `t = u` (a
/// ranged nondet value, an uninitialised C variable).
fn range_at(cfg: &Cfg, node: NodeId, site: Site) -> Range {
    match site {
        Site::Uninit(v) => cfg.vars[v].range,
        Site::Undef(0) => match cfg.nodes.get(node).map(|n| &n.kind) {
            Some(NodeKind::Assign { lhs, rhs, .. })
                if lhs.len() == 1 && rhs.first() == Some(&Expr::Undef) =>
            {
                cfg.vars[lhs[0]].range
            }
            _ => Range::Any,
        },
        _ => Range::Any,
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
        let v = match site {
            Site::Undef(k) => self.shaped_draw(SiteKey::Undef(node, k), None),
            _ => self.draw(),
        };
        fit(range_at(self.cfg, node, site), v)
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
    fn array_cell(&mut self, _: usize, array: ArrayId, index: i64) -> BigInt {
        let v = self.shaped_draw(SiteKey::Array(array), Some(index));
        fit(self.cfg.arrays[array].range, v)
    }
}

/// The run that answers every query with 0 (after three guided ones: most bugs need
/// values, and a long program pays for each run).
const ZERO_RUN: u64 = 3;

/// How much the search lowers its priority once it yields ([`SearchOptions::share_after`]).
const YIELD_NICE: i32 = 10;

/// Runs up to this many steps record their path and oracle answers as they go (a find
/// needs no second run); longer ones run bare (recording costs about half the speed, and
/// most runs find nothing) and, if they find, run again recording.
const RECORD_UP_TO: usize = 200_000;

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
/// guided oracle with seed `opts.seed + run`, inside the learned ranges of the draws
/// ([`draws`]) most of the time.
pub fn search_within(cfg: &Cfg, opts: &SearchOptions, deadline: &Deadline) -> SearchResult {
    let dict = dictionary(cfg);
    let ranges = learn_draws(cfg, &dict);
    let start = Instant::now();
    let mut yielding = false;
    let mut runs = 0u64;
    loop {
        let steps = opts
            .first_steps
            .max(1)
            .saturating_mul(luby(runs) as usize)
            .min(opts.max_steps.max(1));
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
            let seed = opts.seed.wrapping_add(runs);
            let oracle = GuidedOracle::new(cfg, &dict, runs, seed);
            // A value of a range open on one side lies as far from its end as the small
            // values from 0.
            let spread = oracle.small as u64;
            one_run(cfg, InRange::new(oracle, &ranges, seed, spread), limits)
        };
        tracing::debug!(
            run = runs,
            bound = steps,
            ?outcome,
            ms = run_start.elapsed().as_millis() as u64,
            "search run"
        );
        runs += 1;
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

/// The ranges learned for draws ([`draws`]) and the search through them.
#[cfg(test)]
mod draw_tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontend::load;
    use crate::interp::ListOracle;
    use crate::testutil::{header, lp_dir, sources};
    use num_traits::ToPrimitive;

    type Learned = Vec<(Option<i64>, Option<i64>)>;

    fn cfg_of(name: &str, src: &str) -> Cfg {
        load(SourceFile::new(name, src)).unwrap().cfg
    }

    /// The sound ranges learned for the draws of a program, in node order, as `(lo, hi)`.
    fn learned(name: &str, src: &str) -> Learned {
        learned_as(name, src, false)
    }

    /// The hints learned for the draws of a program, in node order, as `(lo, hi)`.
    fn hinted(name: &str, src: &str) -> Learned {
        learned_as(name, src, true)
    }

    fn learned_as(name: &str, src: &str, hint: bool) -> Learned {
        let c = cfg_of(name, src);
        let num = |v: &Option<BigInt>| v.as_ref().map(|v| v.to_i64().unwrap());
        learn_draws(&c, &dictionary(&c))
            .iter()
            .filter(|(_, r)| r.hint == hint)
            .map(|(_, r)| (num(&r.lo), num(&r.hi)))
            .collect()
    }

    /// A C program drawing `y` in a loop of 5, checked by `check` (statements), adding it
    /// to `s`, with an error when `s < -20`.
    fn c_loop(check: &str) -> String {
        format!(
            "extern int __VERIFIER_nondet_int(void);
             extern void abort(void);
             extern void __VERIFIER_assume(int);
             void reach_error(void) {{}}
             int main(void) {{
               int s = 0;
               for (int i = 0; i < 5; i++) {{
                 int y = __VERIFIER_nondet_int();
                 {check}
                 s = s + y;
               }}
               if (s < -20) reach_error();
               return 0;
             }}"
        )
    }

    #[test]
    fn an_assume_bounds_the_draw_before_it() {
        let src = "void main() { int x, s; s = 0; x = u; assume(3 <= x && x <= 9); \
                   if (x + s == 7) { ERROR: ; } }";
        assert_eq!(learned("t.lp", src), [(Some(3), Some(9))]);
        let c = c_loop("__VERIFIER_assume(-8 <= y && y < -2);");
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
        // `assume(y == 4)`, and `2·y ≤ 9` in ℤ: y ≤ 4.
        let c = c_loop("__VERIFIER_assume(y == -4);");
        assert_eq!(learned("t.c", &c), [(Some(-4), Some(-4))]);
        let src = "void main() { int x, s; x = u; assume(2 * x <= 9); assume(x > -3); \
                   if (x == s) { ERROR: ; } }";
        assert_eq!(learned("t.lp", src), [(Some(-2), Some(4))]);
        // The error's own test bounds the draw like any other whose other side ends the
        // run: only 1 reaches it.
        let src = "void main() { int x; x = u; if (x == 1) { ERROR: ; } }";
        assert_eq!(learned("t.lp", src), [(Some(1), Some(1))]);
    }

    #[test]
    fn a_negated_range_test_that_returns_bounds_the_draw() {
        let c = c_loop("if (!(-8 <= y && y <= -3)) return 0;");
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
        // The same as a disjunction of the failures, ending in `abort()`.
        let c = c_loop("if (y < -8 || y > -3) abort();");
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
        // Two one-sided tests one after the other.
        let c = c_loop("if (y < -8) return 0; if (y >= -2) return 0;");
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
    }

    #[test]
    fn a_one_sided_test_bounds_one_side() {
        // The int's own upper end narrows nothing: the range stays open above.
        let c = c_loop("if (y < -8) return 0;");
        assert_eq!(learned("t.c", &c), [(Some(-8), None)]);
        let c = c_loop("if (y > -3) return 0;");
        assert_eq!(learned("t.c", &c), [(None, Some(-3))]);
        let src = "void main() { int x, s; x = u; if (x <= 0) { skip; } else { \
                   if (x == s) { ERROR: ; } } }";
        assert_eq!(learned("t.lp", src), [(Some(1), None)]);
    }

    #[test]
    fn a_test_after_unrelated_statements_bounds_the_draw() {
        let c = c_loop("int z = s * 2; s = s + 1; s = s - 1; if (!(-8 <= y && y <= -3)) return 0;");
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
        // Through a copy, and past a branch on something else whose sides both test it.
        let c = c_loop(
            "int w = y; if (i == 2) { s = s + 0; } if (w > -3) return 0; if (w < -8) return 0;",
        );
        assert_eq!(learned("t.c", &c), [(Some(-8), Some(-3))]);
    }

    #[test]
    fn a_test_whose_failing_side_reaches_the_error_bounds_nothing() {
        // The values the test rejects lead to an error too.
        let c = c_loop("if (!(-8 <= y && y <= -3)) { if (s == -7) reach_error(); return 0; }");
        assert_eq!(learned("t.c", &c), []);
        // `break` leaves the loop for the check after it.
        let c = c_loop("if (!(-8 <= y && y <= -3)) break;");
        assert_eq!(learned("t.c", &c), []);
        // The draw is redefined before the test: the test is about another value.
        let c = c_loop("y = s; if (!(-8 <= y && y <= -3)) return 0;");
        assert_eq!(learned("t.c", &c), []);
        // A test of the draw against another variable bounds nothing.
        let c = c_loop("if (y < s - 8) return 0;");
        assert_eq!(learned("t.c", &c), []);
    }

    #[test]
    fn a_return_from_a_procedure_does_not_end_the_run() {
        // `get` gives up on a negative value by returning 0, and the caller goes on to
        // the error with it: nothing learned.
        let get = |give_up: &str| {
            format!(
                "extern int __VERIFIER_nondet_int(void);
                 extern void abort(void);
                 void reach_error(void) {{}}
                 int get(void) {{ int y = __VERIFIER_nondet_int(); if (y < 0) {give_up}; return y; }}
                 int main(void) {{
                   int s = __VERIFIER_nondet_int(); int v = get();
                   if (v == s) reach_error();
                   return 0;
                 }}"
            )
        };
        assert_eq!(learned("t.c", &get("return 0")), []);
        assert_eq!(learned("t.c", &get("abort()")), [(Some(0), None)]);
        // But `return 0` drops the value unused: a hint, drawn in mostly.
        assert_eq!(hinted("t.c", &get("return 0")), [(Some(0), None)]);
        assert_eq!(hinted("t.c", &get("abort()")), []);
        // The caller's own test counts: values above 4 never reach the error.
        let src = "extern int __VERIFIER_nondet_int(void);
                   void reach_error(void) {}
                   int get(void) { int y = __VERIFIER_nondet_int(); if (y < 0) return -1; return y; }
                   int main(void) { int v = get(); if (v < 5) reach_error(); return 0; }";
        assert_eq!(learned("t.c", src), [(None, Some(4))]);
        // A value drawn in a callee and tested by its caller, and one whose callee aborts.
        let src = "extern int __VERIFIER_nondet_int(void);
                   extern void abort(void);
                   void reach_error(void) {}
                   int get(void) { return __VERIFIER_nondet_int(); }
                   int pick(void) { int v = __VERIFIER_nondet_int(); if (v > 6) abort(); return v; }
                   int main(void) {
                     int d = get();
                     if (!(3 <= d && d <= 9)) return 0;
                     int e = pick();
                     if (d + e == 17) reach_error();
                     return 0;
                   }";
        assert_eq!(learned("t.c", src), [(Some(3), Some(9)), (None, Some(6))]);
    }

    #[test]
    fn a_callee_giving_up_on_a_value_hints_its_range() {
        // The random programs' shape: a callee draws in a loop, gives up on a value out
        // of range by returning 0, and its caller goes on to the error either way.
        let prog = |give_up: &str, use_: &str| {
            format!(
                "extern int __VERIFIER_nondet_int(void);
                 void reach_error(void) {{}}
                 int g;
                 int f(int p) {{
                   for (int i = 0; i < 4; i++) {{
                     int y = __VERIFIER_nondet_int();
                     if (!(-8 <= y && y <= -3)) {give_up}
                     {use_}
                   }}
                   return p;
                 }}
                 int main(void) {{ f(1); if (g < -20) reach_error(); return 0; }}"
            )
        };
        let p = prog("return 0;", "g = g + y;");
        assert_eq!(learned("t.c", &p), []);
        assert_eq!(hinted("t.c", &p), [(Some(-8), Some(-3))]);
        // A side that stores the value before it returns, or may reach the error itself,
        // is no give-up: nothing hinted.
        for give_up in [
            "{ g = y; return 0; }",
            "{ if (g == 5) reach_error(); return 0; }",
        ] {
            assert_eq!(hinted("t.c", &prog(give_up, "g = g + y;")), [], "{give_up}");
        }
        // A side that tests the value again before giving up adds the values it keeps.
        let p = prog("{ if (y == 100) g = 0; return 0; }", "g = g + y;");
        assert_eq!(hinted("t.c", &p), [(Some(-8), Some(100))]);
        // The other side overwrites the value and goes on: still the side the author meant.
        let p = prog("return 0;", "g = g + 1; y = i;");
        assert_eq!(hinted("t.c", &p), [(Some(-8), Some(-3))]);
        // A global draw that both sides return unused: the caller's test decides, nothing
        // hinted.
        let src = "extern int __VERIFIER_nondet_int(void);
                   void reach_error(void) {}
                   int y;
                   int f(void) { y = __VERIFIER_nondet_int(); if (y < 0) return 0; return 1; }
                   int main(void) { f(); if (y == -5) reach_error(); return 0; }";
        assert_eq!(hinted("t.c", src), []);
    }

    #[test]
    fn two_draws_in_one_loop_get_their_own_ranges() {
        let c = c_loop("if (y < -8 || y > -3) return 0; int x = __VERIFIER_nondet_int(); if (x < 10) return 0; if (x > 20) return 0; s = s + x;");
        assert_eq!(
            learned("t.c", &c),
            [(Some(-8), Some(-3)), (Some(10), Some(20))]
        );
    }

    #[test]
    fn draws_are_mostly_inside_the_range() {
        let c = cfg_of("t.c", &c_loop("if (!(-8 <= y && y <= -3)) return 0;"));
        let ranges = learn_draws(&c, &dictionary(&c));
        let (node, range) = ranges.iter().next().unwrap();
        let (mut inside, mut ends, mut consts) = (0, 0, 0);
        // Run 0 draws inside 3 times in 4; the inner oracle answers 0, outside.
        let mut o = InRange::new(ListOracle::new(Vec::new()), &ranges, 0, 2);
        for _ in 0..4000 {
            let v = o.undef(0, node, Site::Undef(0)).to_i64().unwrap();
            if (-8..=-3).contains(&v) {
                inside += 1;
                ends += i32::from(v == -8 || v == -3);
                consts += i32::from(v == -4 || v == -7);
            } else {
                assert_eq!(v, 0);
            }
        }
        assert!((2800..3200).contains(&inside), "{inside} of 4000 inside");
        assert!(
            ends > 500 && consts > 200,
            "{ends} ends, {consts} constants"
        );
        assert!(range.consts.contains(&BigInt::from(-7)));
        // Another site (an array cell, the uninitialised) goes to the inner oracle.
        assert_eq!(o.undef(0, node, Site::Undef(1)), BigInt::from(0));
    }

    /// lp-programs/search: bugs reached by most runs whose draws pass their checks; the
    /// search finds each within a budget of runs (not of time) and its trace replays.
    #[test]
    fn the_search_finds_the_ranged_draw_programs_within_a_budget_of_runs() {
        let progs = sources(&lp_dir().join("search"));
        assert!(progs.len() >= 4, "{progs:?}");
        for p in progs {
            assert_eq!(
                header(&p, "expect").as_deref(),
                Some("unsafe"),
                "{}",
                p.display()
            );
            let c = crate::frontend::load_path(&p).unwrap().cfg;
            let opts = SearchOptions {
                max_runs: Some(SEARCH_BUDGET),
                ..SearchOptions::default()
            };
            match search_within(&c, &opts, &Deadline::none()) {
                SearchResult::Found { trace, witness } => {
                    trace::replay(&c, &trace, &witness).unwrap();
                }
                other => panic!("{}: {other:?}", p.display()),
            }
        }
    }

    /// Runs of the search on lp-programs/search.
    const SEARCH_BUDGET: u64 = 300;

    /// lp-programs/big_arrays: bugs behind arrays of 10^3 to 2·10^5 cells that need a
    /// run over distinct cells, a sorted one, or the one index the program's constants
    /// name. The search finds each unsafe program within a budget of runs (its Luby
    /// bounds and shapes, not time), and its trace replays; it finds nothing in the safe
    /// twins' first runs.
    #[test]
    fn the_search_finds_deep_bugs_in_big_arrays_within_a_budget_of_runs() {
        let progs = sources(&lp_dir().join("big_arrays"));
        assert!(progs.len() >= 14, "{progs:?}");
        for p in progs {
            let c = crate::frontend::load_path(&p).unwrap().cfg;
            let unsafe_ = header(&p, "expect").as_deref() == Some("unsafe");
            let opts = SearchOptions {
                max_runs: Some(if unsafe_ { BIG_ARRAYS_BUDGET } else { 2 }),
                // The safe twins' runs never end early: shorter ones.
                first_steps: if unsafe_ {
                    SearchOptions::default().first_steps
                } else {
                    1_000_000
                },
                ..SearchOptions::default()
            };
            match (search_within(&c, &opts, &Deadline::none()), unsafe_) {
                (SearchResult::Found { trace, witness }, true) => {
                    trace::replay(&c, &trace, &witness).unwrap();
                }
                (SearchResult::NotFound { .. }, false) => {}
                (other, _) => panic!("{}: {other:?}", p.display()),
            }
        }
    }

    /// Runs of the search on lp-programs/big_arrays.
    const BIG_ARRAYS_BUDGET: u64 = 200;
}
