//! Recording of the Fourier–Motzkin projections and entailment tests a run asks the
//! linear layer for, and a line-based text form of them, so that the criterion
//! benchmarks replay the conjunctions real programs produce (the `internals` feature
//! only; a normal build records nothing).
//!
//! The text form of a conjunction is its domain (`I` or `R`), then `F` for `false` or
//! the rows separated by `;`; a row is `terms|lo|hi`, the terms `dim:coef` separated by
//! spaces, each bound empty (absent), `v`, or `<v` (strict). A record is a line:
//! `P dims<TAB>conj` (a projection of `conj` eliminating the comma-separated `dims`) or
//! `E conj<TAB>conj` (whether the first entails the second).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::conj::{Bound, Conj, Domain, Range};
use super::{Dim, Q};

/// What was recorded between [`start`] and [`stop`].
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// Each projection: the conjunction and the dimensions eliminated.
    pub projections: Vec<(Conj, Vec<Dim>)>,
    /// Each entailment test `a ⊑ b`.
    pub entailments: Vec<(Conj, Conj)>,
}

static ON: AtomicBool = AtomicBool::new(false);
static LOG: Mutex<Option<Log>> = Mutex::new(None);

/// Starts recording (from every thread), dropping anything recorded before.
pub fn start() {
    if let Ok(mut g) = LOG.lock() {
        *g = Some(Log::default());
    }
    ON.store(true, Ordering::SeqCst);
}

/// Stops recording and returns what was recorded.
pub fn stop() -> Log {
    ON.store(false, Ordering::SeqCst);
    LOG.lock()
        .ok()
        .and_then(|mut g| g.take())
        .unwrap_or_default()
}

fn with_log(f: impl FnOnce(&mut Log)) {
    if !ON.load(Ordering::Relaxed) {
        return;
    }
    if let Ok(mut g) = LOG.lock() {
        if let Some(log) = g.as_mut() {
            f(log);
        }
    }
}

/// Records a projection of `c` eliminating `dims`.
pub(super) fn projection(c: &Conj, dims: &[Dim]) {
    with_log(|l| l.projections.push((c.clone(), dims.to_vec())));
}

/// Records an entailment test `a ⊑ b`.
pub(super) fn entailment(a: &Conj, b: &Conj) {
    with_log(|l| l.entailments.push((a.clone(), b.clone())));
}

fn bound_text(b: &Option<Bound>) -> String {
    match b {
        None => String::new(),
        Some(b) if b.strict => format!("<{}", b.value),
        Some(b) => b.value.to_string(),
    }
}

fn parse_bound(s: &str) -> Option<Option<Bound>> {
    if s.is_empty() {
        return Some(None);
    }
    let (strict, v) = match s.strip_prefix('<') {
        Some(v) => (true, v),
        None => (false, s),
    };
    Some(Some(Bound {
        value: v.parse::<Q>().ok()?,
        strict,
    }))
}

/// The text form of `c` (see the module documentation).
pub fn conj_text(c: &Conj) -> String {
    let mut s = String::from(match c.domain {
        Domain::Int => "I",
        Domain::Rat => "R",
    });
    if !c.feasible {
        s.push('F');
        return s;
    }
    let rows: Vec<String> = c
        .rows
        .iter()
        .map(|(key, r)| {
            let terms: Vec<String> = key.iter().map(|(d, a)| format!("{}:{a}", d.0)).collect();
            format!(
                "{}|{}|{}",
                terms.join(" "),
                bound_text(&r.lo),
                bound_text(&r.hi)
            )
        })
        .collect();
    s.push_str(&rows.join(";"));
    s
}

/// The conjunction of a text form made by [`conj_text`]; `None` if it is malformed.
pub fn parse_conj(s: &str) -> Option<Conj> {
    let mut chars = s.chars();
    let domain = match chars.next()? {
        'I' => Domain::Int,
        'R' => Domain::Rat,
        _ => return None,
    };
    let rest = chars.as_str();
    let mut c = Conj::top_in(domain);
    if rest == "F" {
        c.set_false();
        return Some(c);
    }
    if rest.is_empty() {
        return Some(c);
    }
    for row in rest.split(';') {
        let mut parts = row.split('|');
        let (terms, lo, hi) = (parts.next()?, parts.next()?, parts.next()?);
        let mut key = BTreeMap::new();
        for t in terms.split(' ') {
            let (d, a) = t.split_once(':')?;
            key.insert(Dim(d.parse().ok()?), a.parse::<Q>().ok()?);
        }
        let r = Range {
            lo: parse_bound(lo)?,
            hi: parse_bound(hi)?,
        };
        c.rows.insert(key, r);
    }
    Some(c)
}

/// The record lines of `log` (see the module documentation).
pub fn log_lines(log: &Log) -> Vec<String> {
    let mut out = Vec::new();
    for (c, dims) in &log.projections {
        let ds: Vec<String> = dims.iter().map(|d| d.0.to_string()).collect();
        out.push(format!("P {}\t{}", ds.join(","), conj_text(c)));
    }
    for (a, b) in &log.entailments {
        out.push(format!("E {}\t{}", conj_text(a), conj_text(b)));
    }
    out
}

/// The records of `text` (lines made by [`log_lines`]; empty lines and lines starting
/// with `#` are skipped); `None` if a line is malformed.
pub fn parse_log(text: &str) -> Option<Log> {
    let mut log = Log::default();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        if let Some(rest) = line.strip_prefix("P ") {
            let (ds, c) = rest.split_once('\t')?;
            let dims = if ds.is_empty() {
                Vec::new()
            } else {
                ds.split(',')
                    .map(|d| d.parse().ok().map(Dim))
                    .collect::<Option<Vec<_>>>()?
            };
            log.projections.push((parse_conj(c)?, dims));
        } else if let Some(rest) = line.strip_prefix("E ") {
            let (a, b) = rest.split_once('\t')?;
            log.entailments.push((parse_conj(a)?, parse_conj(b)?));
        } else {
            return None;
        }
    }
    Some(log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{Constraint, LinExpr};

    #[test]
    fn text_round_trip() {
        let x = |d: u32| LinExpr::var(Dim(d));
        let k = LinExpr::int;
        let half = LinExpr::constant("7/2".parse::<Q>().expect("a rational"));
        let cs = [
            Constraint::le(&(&x(0) * &"3".parse::<Q>().expect("q")), &(&x(1) + &k(4))),
            Constraint::lt(&x(1), &half),
            Constraint::eq(&x(2), &k(-5)),
        ];
        for domain in [Domain::Int, Domain::Rat] {
            let c = Conj::from_constraints_in(domain, &cs);
            assert_eq!(parse_conj(&conj_text(&c)), Some(c.clone()));
            let log = Log {
                projections: vec![(c.clone(), vec![Dim(1), Dim(2)]), (Conj::top(), vec![])],
                entailments: vec![(c.clone(), Conj::top_in(domain))],
            };
            let back = parse_log(&log_lines(&log).join("\n")).expect("parses");
            assert_eq!(back.projections, log.projections);
            assert_eq!(back.entailments, log.entailments);
        }
        let mut f = Conj::top();
        f.set_false();
        assert_eq!(parse_conj(&conj_text(&f)), Some(f));
        assert_eq!(parse_conj("X"), None);
    }

    #[test]
    fn records_projections_and_entailments() {
        let x = |d: u32| LinExpr::var(Dim(d));
        let c =
            Conj::from_constraints(&[Constraint::le(&x(0), &x(1)), Constraint::le(&x(1), &x(7))]);
        start();
        let p = c.project_out_within(&[Dim(1)], &crate::limits::Deadline::none());
        assert!(c.entails(&p));
        let log = stop();
        // Other tests may run at the same time and be recorded too.
        assert!(log.projections.contains(&(c.clone(), vec![Dim(1)])));
        assert!(log.entailments.contains(&(c.clone(), p.clone())));
        assert!(c.project_out_within(&[Dim(1)], &crate::limits::Deadline::none()) == p);
        assert!(stop().projections.is_empty(), "nothing recorded after stop");
    }
}
