//! `lpmc validate`: a witness of a program in our fragment, checked.
//! - A violation witness: the witness becomes a monitor on the program
//!   ([`super::monitor`]: its segments, `follow` and `avoid` waypoints, and the target),
//!   and the question is whether the monitored program reaches its error, that is,
//!   whether some run of the program matches the witness. First the run whose inputs are
//!   the values the witness gives (`x == 7`, `\result == 7`) is replayed on the
//!   monitored program by the interpreter (lpmc's own witnesses give every input); if it
//!   does not reach the target, the engines of `check` (the portfolio) search for a
//!   matching run: a run found is CONFIRMED (replayed by the interpreter), a proof that
//!   the monitored program is safe REJECTED, neither before the time limit UNKNOWN.
//! - A correctness witness: its loop invariants (a loop without one, and a procedure
//!   with loops or recursion, claim `true`) are certified on the program: initiation,
//!   consecution and safety ([`crate::certify`]). Format 2.0 has no procedure summaries
//!   and no quantifiers, so when the witness's invariants alone do not prove the program
//!   safe, lpmc's own proof (its CEGAR engine's invariants, summaries and ∀-invariants)
//!   is added as lemmas and everything is certified together: the witness is confirmed
//!   only if its own invariants hold too (a wrong one fails initiation or consecution).

use super::cexpr;
use super::monitor::instrument;
use super::segments::{draw, segments, Kind, Locator, Point, Segment, WitnessProblem};
use super::sha256;
use crate::accel::CountRange;
use crate::certify::{check_claims, claims_of, loop_heads, summarized, CertStatus, Claim, Claims};
use crate::frontend::Loaded;
use crate::ids::ArrayId;
use crate::ids::NodeId;
use crate::interp::{run, Limits, ListOracle, Oracle, Outcome as RunOutcome, Site};
use crate::limits::Deadline;
use crate::sema::Expr;
use crate::smt::Solvers;
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;
use yaml_rust2::Yaml;

/// What a validation concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValidationVerdict {
    /// The witness is confirmed: its run reaches the error, or its invariants prove the
    /// program safe.
    Confirmed,
    /// The witness is refuted: its run does not reach the error, or its invariants do not
    /// prove the program safe.
    Rejected,
    /// Neither (the witness is out of the fragment, or the check out of reach).
    Unknown,
}

impl ValidationVerdict {
    /// The exit code: 0 confirmed, 1 rejected, 20 unknown.
    pub fn exit_code(self) -> u8 {
        match self {
            ValidationVerdict::Confirmed => 0,
            ValidationVerdict::Rejected => 1,
            ValidationVerdict::Unknown => 20,
        }
    }
}

/// The result of a validation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Validation {
    /// The verdict.
    pub verdict: ValidationVerdict,
    /// `violation` or `correctness`.
    pub witness: String,
    /// Why.
    pub reason: String,
}

fn done(verdict: ValidationVerdict, witness: &str, reason: impl Into<String>) -> Validation {
    Validation {
        verdict,
        witness: witness.into(),
        reason: reason.into(),
    }
}

/// How the program was loaded, for what validation loads again.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValidateOptions {
    /// Accelerate the loops (as `check` does unless `--no-accel`): the program given to
    /// [`validate`] must not be accelerated yet, since a violation witness's monitor goes
    /// into the program as written, and is accelerated with it.
    pub accelerate: bool,
    /// `--jump-checks` (see [`crate::LoadOptions::jump_checks`]).
    pub jump_checks: bool,
}

/// A witness that is not valid input: malformed, or a waypoint at no location of the
/// program (exit 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidWitness(pub String);

impl std::fmt::Display for InvalidWitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Validate the witness `text` of the program `loaded` read from `program`. `loaded`
/// is the program before acceleration (`LoadOptions::no_accel`); `opts` says whether
/// to accelerate it.
pub fn validate(
    loaded: &Loaded,
    program: &Path,
    text: &str,
    solvers: &Solvers,
    deadline: &Deadline,
    opts: &ValidateOptions,
) -> Result<Validation, InvalidWitness> {
    use ValidationVerdict::*;
    let super::load::Witness {
        docs,
        segments: mut read,
    } = match super::load::read(text) {
        Ok(w) => w,
        Err(e) => return Err(InvalidWitness(format!("not YAML: {e}"))),
    };
    let Some(Yaml::Array(entries)) = docs.first() else {
        return Err(InvalidWitness("a witness is a list of entries".into()));
    };
    let own = sha256(program).ok();
    for e in entries {
        let hashes = &e["metadata"]["task"]["input_file_hashes"];
        if let (Yaml::Hash(h), Some(own)) = (hashes, &own) {
            if !h.values().any(|v| v.as_str() == Some(own.as_str())) {
                return Ok(done(
                    Rejected,
                    "unknown",
                    "the witness is of another program (no input file hash matches)",
                ));
            }
        }
    }
    let kind = |t: &'static str| -> Vec<(usize, &Yaml)> {
        entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e["entry_type"].as_str() == Some(t))
            .collect()
    };
    let (violations, invariants) = (kind("violation_sequence"), kind("invariant_set"));
    if !violations.is_empty() {
        return violation(loaded, program, &violations, &mut read, deadline, opts);
    }
    if !invariants.is_empty() {
        let invariants = invariants.into_iter().map(|(_, e)| e).collect();
        // Invariants are about the program as `check` sees it: accelerated.
        let mut loaded = loaded.clone();
        if opts.accelerate {
            crate::accel::accelerate(&mut loaded.cfg, opts.jump_checks);
        }
        return Ok(correctness(&loaded, invariants, solvers, deadline));
    }
    Ok(done(
        Unknown,
        "unknown",
        "no violation_sequence or invariant_set entry",
    ))
}

/// The integer on the right of `x == 7` (or `\result == -3`).
fn assumed_value(c: &str) -> Option<BigInt> {
    let (_, rhs) = c.split_once("==")?;
    let rhs = rhs
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let rhs = rhs.trim_end_matches(['u', 'U', 'l', 'L']);
    rhs.parse::<BigInt>().ok()
}

/// `a[3]` of `a[3] == 7`, when `a` is one of the program's arrays: the assumption
/// gives a cell's initial value (arbitrary contents), not the next input.
fn assumed_cell(loaded: &Loaded, c: &str) -> Option<(String, i64)> {
    let (lhs, _) = c.split_once("==")?;
    let (name, rest) = lhs.trim().split_once('[')?;
    let index = rest.strip_suffix(']')?.trim().parse::<i64>().ok()?;
    let name = name.trim();
    loaded
        .cfg
        .arrays
        .iter()
        .any(|a| a.name == name)
        .then(|| (name.to_string(), index))
}

/// The inputs a violation witness gives: the values of the draws its
/// `function_return` waypoints name, in order per draw; the other arbitrary values in
/// the order the run draws them (0 once the witness has no more); and the initial values
/// of array cells, drawn when a cell is first read (so not in the order of the witness,
/// which gives them after the array's declaration), in the order given per cell. The
/// monitor's choices (`#choose = u`) end a segment at once (1).
struct WitnessOracle<'c> {
    cfg: &'c crate::cfg::Cfg,
    draws: BTreeMap<NodeId, VecDeque<BigInt>>,
    values: ListOracle,
    cells: BTreeMap<(String, i64), VecDeque<BigInt>>,
    choices: &'c BTreeSet<NodeId>,
    /// Whether an accelerated loop takes the greatest count its guard allows (else one
    /// iteration at a time).
    greatest: bool,
}

impl Oracle for WitnessOracle<'_> {
    fn undef(&mut self, step: usize, node: NodeId, site: Site) -> BigInt {
        if self.choices.contains(&node) {
            return BigInt::from(1);
        }
        if let Some(v) = self.draws.get_mut(&node).and_then(VecDeque::pop_front) {
            return v;
        }
        self.values.undef(step, node, site)
    }
    /// A cell the witness does not give holds 0.
    fn array_cell(&mut self, _: usize, array: ArrayId, index: i64) -> BigInt {
        let name = self.cfg.arrays[array].name.clone();
        self.cells
            .get_mut(&(name, index))
            .and_then(VecDeque::pop_front)
            .unwrap_or_default()
    }
    /// Counts are not inputs: the witness holds the program's own inputs only.
    fn count(&mut self, step: usize, node: NodeId, site: Site, r: Option<&CountRange>) -> BigInt {
        match r.and_then(|r| r.hi.clone()) {
            Some(hi) if self.greatest => hi,
            _ => self.values.count(step, node, site, r),
        }
    }
}

/// The most steps the replay of a witness's values may take (an accelerated loop of the
/// counterexample runs here one iteration at a time); the deadline stops it earlier.
const MAX_STEPS: usize = 200_000_000;

/// The inputs of the replay: what a witness's `follow` waypoints fix (`x == 7`,
/// `\result == 7`, `a[3] == 7`).
#[derive(Clone, Default)]
struct Values {
    /// The values of the draws `t = u` that `function_return` waypoints give, per node in
    /// order.
    draws: BTreeMap<NodeId, VecDeque<BigInt>>,
    /// The other values (`x == 7`), in order, for the other arbitrary values.
    rest: Vec<BigInt>,
    /// The initial values of array cells.
    cells: BTreeMap<(String, i64), VecDeque<BigInt>>,
}

fn witness_values(loaded: &Loaded, locator: &Locator, segs: &[Segment]) -> Values {
    let mut out = Values::default();
    for s in segs {
        let w = &s.follow;
        if !matches!(w.kind, Kind::Assumption | Kind::FunctionReturn) {
            continue;
        }
        let Some(c) = &w.constraint else { continue };
        let Some(v) = assumed_value(c) else { continue };
        if let Some(cell) = assumed_cell(loaded, c) {
            out.cells.entry(cell).or_default().push_back(v);
            continue;
        }
        let drawn = match w.kind {
            Kind::FunctionReturn => locator.place(w).ok().and_then(|ps| {
                ps.iter().find_map(|p| match p.point {
                    Point::After(n) => draw(&loaded.cfg, n).map(|_| n),
                    _ => None,
                })
            }),
            _ => None,
        };
        match drawn {
            Some(n) => out.draws.entry(n).or_default().push_back(v),
            None => out.rest.push(v),
        }
    }
    out
}

/// Replay the witness's values on the monitored program: whether the run reaches its
/// error (the target, every segment passed), and at which node.
fn replay(
    monitored: &Loaded,
    values: &Values,
    choices: &BTreeSet<NodeId>,
    deadline: &Deadline,
) -> Option<NodeId> {
    let cfg = &monitored.cfg;
    // At most half the time left: the engines' search gets the rest.
    let now = std::time::Instant::now();
    let limits = Limits {
        max_steps: MAX_STEPS,
        until: deadline
            .instant()
            .map(|t| now + t.saturating_duration_since(now) / 2),
        ..Limits::default()
    };
    // First with every accelerated loop taken as far as its guard allows (an exact
    // transition: a real run, and the only one of a loop without inputs, however many
    // iterations), then one iteration at a time.
    for greatest in [true, false] {
        let mut oracle = WitnessOracle {
            cfg,
            draws: values.draws.clone(),
            values: ListOracle::new(values.rest.clone()),
            cells: values.cells.clone(),
            choices,
            greatest,
        };
        if let RunOutcome::Error { at } = run(cfg, &mut oracle, limits, false).outcome {
            return Some(at);
        }
    }
    None
}

fn violation(
    loaded: &Loaded,
    program: &Path,
    entries: &[(usize, &Yaml)],
    read: &mut BTreeMap<usize, Result<Vec<Segment>, WitnessProblem>>,
    deadline: &Deadline,
    opts: &ValidateOptions,
) -> Result<Validation, InvalidWitness> {
    use ValidationVerdict::*;
    let unknown = |why: String| Ok(done(Unknown, "violation", why));
    let segs = match segments(entries, read) {
        Ok(s) => s,
        Err(WitnessProblem::Invalid(m)) => return Err(InvalidWitness(m)),
        Err(WitnessProblem::Unsupported(m)) => return unknown(m),
    };
    let locator = Locator::new(loaded, program);
    let mon = match instrument(&locator, &loaded.cfg, &segs) {
        Ok(m) => m,
        Err(WitnessProblem::Invalid(m)) => return Err(InvalidWitness(m)),
        Err(WitnessProblem::Unsupported(m)) => return unknown(m),
    };
    let target = segs.last().map(|s| s.follow.describe()).unwrap_or_default();
    let n = segs.len();
    let mut monitored = loaded.clone();
    monitored.cfg = mon.cfg;
    if opts.accelerate {
        crate::accel::accelerate(&mut monitored.cfg, opts.jump_checks);
    }
    let values = witness_values(loaded, &locator, &segs);
    if replay(&monitored, &values, &mon.choices, deadline).is_some() {
        return Ok(done(
            Confirmed,
            "violation",
            format!(
                "the run with the witness's values passes its {n} segment(s) in order and \
                 reaches the {target} (replayed by the interpreter)"
            ),
        ));
    }
    // A search for a matching run by the engines of `check`.
    let timeout_s = deadline.instant().map(|t| {
        t.saturating_duration_since(std::time::Instant::now())
            .as_secs_f64()
    });
    if timeout_s.is_some_and(|t| t <= 0.0) {
        return unknown("the time limit ran out before the engines could search".into());
    }
    let check_opts = crate::driver::CheckOptions {
        timeout_s,
        ..Default::default()
    };
    let r = crate::portfolio::check(&monitored, &check_opts, crate::portfolio::EngineChoice::All);
    Ok(match &r.outcome {
        crate::report::Outcome::Unsafe(c) => done(
            Confirmed,
            "violation",
            format!(
                "a run of {} steps passes the witness's {n} segment(s) in order and reaches \
                 the {target} (found by the {} engine, replayed by the interpreter{})",
                c.length,
                c.engine.as_str(),
                inputs_text(c),
            ),
        ),
        crate::report::Outcome::Safe(p) => done(
            Rejected,
            "violation",
            format!(
                "no run of the program passes the witness's {n} segment(s) in order and \
                 reaches the {target}: the program with the witness as a monitor is safe \
                 (proved by the {} engine)",
                p.engine.as_str()
            ),
        ),
        crate::report::Outcome::Unknown(_) => done(
            Unknown,
            "violation",
            format!(
                "no matching run found and none ruled out: {}",
                r.outcome.reason()
            ),
        ),
    })
}

/// `; inputs 3, -1, 0` (the first few).
fn inputs_text(c: &crate::report::Counterexample) -> String {
    const SHOWN: usize = 8;
    if c.inputs.is_empty() {
        return String::new();
    }
    let mut vs: Vec<String> = c
        .inputs
        .iter()
        .take(SHOWN)
        .map(|i| i.value.to_string())
        .collect();
    if c.inputs.len() > SHOWN {
        vs.push("...".into());
    }
    format!("; inputs {}", vs.join(", "))
}

fn correctness(
    loaded: &Loaded,
    entries: Vec<&Yaml>,
    solvers: &Solvers,
    deadline: &Deadline,
) -> Validation {
    use ValidationVerdict::*;
    let cfg = &loaded.cfg;
    let heads = loop_heads(cfg);
    let at = |n: NodeId| {
        let lc = loaded.file.line_col(cfg.nodes[n].span.start);
        (i64::from(lc.line), i64::from(lc.col))
    };
    let truth = || vec![Claim::Expr(Expr::Const(BigInt::from(1)))];
    let mut claims = Claims {
        vars: cfg.vars.iter().cloned().collect(),
        ..Claims::default()
    };
    for h in &heads {
        claims.loop_heads.insert(*h, truth());
    }
    for p in summarized(cfg, &heads) {
        claims.entries.insert(p, truth());
        claims.summaries.insert(p, truth());
    }
    let mut given = 0usize;
    for e in entries {
        for item in e["content"].as_vec().map(Vec::as_slice).unwrap_or_default() {
            let inv = &item["invariant"];
            let (Some(kind), Some(value), Some(line)) = (
                inv["type"].as_str(),
                inv["value"].as_str(),
                inv["location"]["line"].as_i64(),
            ) else {
                return done(
                    Unknown,
                    "correctness",
                    "an invariant without type, value or line",
                );
            };
            let col = inv["location"]["column"].as_i64();
            let matches = |n: &NodeId| {
                let (l, c) = at(*n);
                l == line && col.is_none_or(|x| x == c)
            };
            let node = match kind {
                "loop_invariant" => heads.iter().copied().find(matches),
                _ => cfg
                    .nodes
                    .indices()
                    .find(|n| *n != crate::cfg::ERROR_NODE && matches(n)),
            };
            let Some(node) = node else {
                return done(
                    Unknown,
                    "correctness",
                    format!("no {kind} location at line {line} of the program"),
                );
            };
            let Some(proc) = cfg.nodes[node].proc else {
                continue;
            };
            let expr = match cexpr::parse(cfg, proc, value) {
                Ok(e) => e,
                Err(why) => {
                    return done(
                        Unknown,
                        "correctness",
                        format!("cannot read `{value}`: {why}"),
                    )
                }
            };
            given += 1;
            if kind == "loop_invariant" {
                claims.loop_heads.insert(node, vec![Claim::Expr(expr)]);
            } else {
                claims
                    .passing
                    .entry(node)
                    .or_default()
                    .push(Claim::Expr(expr));
            }
        }
    }
    let cert = check_claims(cfg, &loaded.file, &claims, solvers, deadline);
    if cert.status == CertStatus::Checked {
        return done(
            Confirmed,
            "correctness",
            format!(
                "the {given} invariant(s) hold and prove the program safe ({} obligations)",
                cert.obligations
            ),
        );
    }
    // With lpmc's own proof as lemmas. Only invariants can serve as lemmas for the
    // invariants given: a bounded proof would leave the failed check above as the answer,
    // so with invariants given the CEGAR engine alone looks for the proof (with the whole
    // portfolio, which engine finished first would decide the verdict).
    let engines = if given == 0 {
        crate::portfolio::EngineChoice::All
    } else {
        crate::portfolio::EngineChoice::Cegar
    };
    let own = match own_proof(loaded, engines, deadline) {
        Own::Invariants(c) => c,
        Own::Bounded(k) if given == 0 => {
            return done(
                Confirmed,
                "correctness",
                format!("the witness claims no invariant, and every path of the program ends within unwinding bound {k} (certified)"),
            )
        }
        Own::Bounded(_) | Own::Nothing => {
            let why = cert.reason.clone().unwrap_or_default();
            return match cert.status {
                CertStatus::Failed => done(Rejected, "correctness", why),
                _ => done(Unknown, "correctness", why),
            };
        }
    };
    let with = lemmas(claims, own);
    let cert = check_claims(cfg, &loaded.file, &with, solvers, deadline);
    let why = cert.reason.clone().unwrap_or_default();
    match cert.status {
        CertStatus::Checked => done(
            Confirmed,
            "correctness",
            format!(
                "the {given} invariant(s) hold and, with lpmc's own invariants as lemmas, prove the program safe ({} obligations)",
                cert.obligations
            ),
        ),
        CertStatus::Failed => done(Rejected, "correctness", why),
        CertStatus::OutOfReach => done(Unknown, "correctness", why),
    }
}

/// lpmc's own certified proof of a program.
enum Own {
    /// Invariants (a CEGAR proof), as claims.
    Invariants(Claims),
    /// Every path ends within this unwinding bound (a bounded proof).
    Bounded(u32),
    /// No proof before the deadline.
    Nothing,
}

/// lpmc's own (certified) proof of the program, if `engines` find one before the
/// deadline.
fn own_proof(loaded: &Loaded, engines: crate::portfolio::EngineChoice, deadline: &Deadline) -> Own {
    let timeout_s = deadline.instant().map(|t| {
        t.saturating_duration_since(std::time::Instant::now())
            .as_secs_f64()
    });
    if timeout_s.is_some_and(|t| t <= 0.0) {
        return Own::Nothing;
    }
    let opts = crate::driver::CheckOptions {
        timeout_s,
        ..Default::default()
    };
    let r = crate::portfolio::check(loaded, &opts, engines);
    match r.outcome {
        crate::report::Outcome::Safe(p) => match p.bound {
            Some(k) if p.invariants.is_empty() => Own::Bounded(k),
            _ => Own::Invariants(claims_of(&loaded.cfg, &p.invariants)),
        },
        _ => Own::Nothing,
    }
}

/// The witness's claims with `own` as lemmas: conjoined at each loop head, and the
/// summaries, entry conditions and ∀-statements taken from `own`.
fn lemmas(witness: Claims, own: Claims) -> Claims {
    let mut out = own;
    for (h, cs) in witness.loop_heads {
        let mut all = cs;
        all.extend(out.loop_heads.remove(&h).unwrap_or_default());
        out.loop_heads.insert(h, all);
    }
    for (n, cs) in witness.passing {
        out.passing.entry(n).or_default().extend(cs);
    }
    out
}
