//! Writing witnesses: a violation sequence from a replayed counterexample, an invariant
//! set from a certified proof.

use super::{document, document_head, location, map, metadata, s, WitnessTask};
use crate::cfg::{Cfg, NodeKind};
use crate::frontend::Loaded;
use crate::ids::{NodeId, ProcId};
use crate::invariant::{Formula, Point, Row, TermKind};
use crate::report::{Counterexample, Proof};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// The procedures in a cycle of the call graph.
pub(super) fn recursive(cfg: &Cfg) -> BTreeSet<ProcId> {
    let np = cfg.procs.len();
    let mut calls = vec![BTreeSet::new(); np];
    for node in cfg.nodes.iter() {
        if let (Some(p), NodeKind::Call { proc, .. }) = (node.proc, &node.kind) {
            calls[p.0 as usize].insert(proc.0 as usize);
        }
    }
    (0..np)
        .filter(|&p| {
            let mut seen = BTreeSet::new();
            let mut work: Vec<usize> = calls[p].iter().copied().collect();
            while let Some(q) = work.pop() {
                if q == p {
                    return true;
                }
                if seen.insert(q) {
                    work.extend(calls[q].iter().copied());
                }
            }
            false
        })
        .map(|p| ProcId(p as u32))
        .collect()
}

fn line_col(loaded: &Loaded, n: NodeId) -> (u32, u32) {
    let lc = loaded.file.line_col(loaded.cfg.nodes[n].span.start);
    (lc.line, lc.col)
}

fn proc_name(cfg: &Cfg, n: NodeId) -> String {
    cfg.nodes[n]
        .proc
        .map(|p| cfg.procs[p].name.clone())
        .unwrap_or_default()
}

/// A waypoint of a violation sequence, before it is written.
struct Waypoint {
    kind: &'static str,
    line: u32,
    col: u32,
    function: String,
    constraint: Option<String>,
}

/// A YAML double-quoted scalar: any string, escaped (YAML 1.2, §7.3.1).
fn quoted(out: &mut String, x: &str) {
    out.push('"');
    for c in x.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One segment of a single waypoint, as a block sequence item of `content`. A violation
/// sequence may hold millions of them (one per input of a long run), so they are written
/// as text rather than built as a YAML tree and emitted.
fn push_segment(out: &mut String, file: &str, w: &Waypoint) {
    use std::fmt::Write as _;
    out.push_str("    - segment:\n        - waypoint:\n            type: ");
    out.push_str(w.kind);
    out.push_str("\n            action: follow\n            location:\n              file_name: ");
    quoted(out, file);
    let _ = write!(
        out,
        "\n              line: {}\n              column: {}\n              function: ",
        w.line.max(1),
        w.col.max(1)
    );
    quoted(out, &w.function);
    out.push('\n');
    if let Some(c) = &w.constraint {
        out.push_str("            constraint:\n              value: ");
        quoted(out, c);
        out.push_str("\n              format: c_expression\n");
    }
}

/// The violation witness of a replayed counterexample.
pub fn violation_witness(
    loaded: &Loaded,
    task: &WitnessTask,
    cex: &Counterexample,
) -> Result<String, String> {
    let cfg = &loaded.cfg;
    let rec = recursive(cfg);
    let waypoint = |kind: &'static str, n: NodeId, constraint: Option<String>| {
        let (line, col) = line_col(loaded, n);
        Waypoint {
            kind,
            line,
            col,
            function: proc_name(cfg, n),
            constraint,
        }
    };
    // Events by step: assumptions, then calls and returns, in step order.
    let mut events: Vec<(usize, u8, Waypoint)> = Vec::new();
    // The kept steps by number (a long trace keeps its first and last steps only).
    let steps: std::collections::BTreeMap<usize, &crate::report::TraceStep> =
        cex.steps.iter().map(|st| (st.step, st)).collect();
    let by_step = |k: usize| steps.get(&k).copied();
    for i in &cex.inputs {
        let n = NodeId(i.node);
        if cfg.nodes.get(n).is_none() {
            return Err(format!("the counterexample names no node {n}"));
        }
        let w = if super::segments::draw(cfg, n).is_some() {
            // A nondeterministic value (`__VERIFIER_nondet_int()`, `u`): the value the
            // call returns, where it is drawn.
            waypoint(
                "function_return",
                n,
                Some(format!("\\result == {}", i.value)),
            )
        } else if let Some(x) = i.what.strip_suffix(" (uninitialised)") {
            // An uninitialised variable's value, before the statement that first reads it.
            waypoint("assumption", n, Some(format!("{x} == {}", i.value)))
        } else if let Some(cell) = i.what.strip_suffix(" (initial)") {
            // An array cell's arbitrary initial value, before the first statement after
            // the declaration (or where it is read, past the kept steps).
            let here = cfg.nodes[n].span.start;
            let after = steps
                .range(i.step + 1..)
                .map(|(_, st)| NodeId(st.node))
                .find(|m| cfg.nodes.get(*m).is_some_and(|x| x.span.start != here))
                .unwrap_or(n);
            waypoint("assumption", after, Some(format!("{cell} == {}", i.value)))
        } else {
            // Any other arbitrary value (an array read out of its bounds under EUREKA's
            // rule) has no name in C: the witness leaves it to the validator's search.
            continue;
        };
        events.push((i.step, 1, w));
    }
    for st in &cex.steps {
        let n = NodeId(st.node);
        match cfg.nodes.get(n).map(|x| &x.kind) {
            Some(NodeKind::Call { proc, .. }) if rec.contains(proc) => {
                events.push((st.step, 0, waypoint("function_enter", n, None)));
            }
            Some(NodeKind::Exit) if cfg.nodes[n].proc.is_some_and(|p| rec.contains(&p)) => {
                // At the call's return point (the call statement).
                if let Some(next) = by_step(st.step + 1) {
                    let m = NodeId(next.node);
                    events.push((st.step, 2, waypoint("function_return", m, None)));
                }
            }
            _ => {}
        }
    }
    events.sort_by_key(|(k, o, _)| (*k, *o));
    let last = cex
        .steps
        .last()
        .map(|st| NodeId(st.node))
        .ok_or("an empty counterexample")?;
    events.push((usize::MAX, 3, waypoint("target", last, None)));
    // The entry without its content, then the content written segment by segment.
    let mut out = document_head("violation_sequence", metadata(loaded, task)?)?;
    out.push_str("  content:\n");
    let file = task.input.to_string_lossy();
    for (_, _, w) in &events {
        push_segment(&mut out, &file, w);
    }
    Ok(out)
}

/// The correctness witness of a proof: a loop invariant at each loop head.
pub fn correctness_witness(
    loaded: &Loaded,
    task: &WitnessTask,
    proof: &Proof,
) -> Result<String, String> {
    let cfg = &loaded.cfg;
    let mut content = Vec::new();
    for p in proof.invariants.iter() {
        let Point::LoopHead { node, .. } = p.point else {
            continue;
        };
        let n = NodeId(node);
        if cfg.nodes.get(n).is_none() {
            continue;
        }
        let (line, col) = line_col(loaded, n);
        let value = c_formula(&p.formula);
        content.push(map(vec![(
            "invariant",
            map(vec![
                ("type", s("loop_invariant")),
                ("location", location(task, line, col, &proc_name(cfg, n))),
                ("value", s(&value)),
                ("format", s("c_expression")),
            ]),
        )]));
    }
    document("invariant_set", metadata(loaded, task)?, content)
}

/// A formula as a C expression over the program's variables: a quantified formula keeps
/// the rows over scalars and constant cells of each disjunct (what holds for every ghost
/// value), and rows over anything else (entry values, internal variables) are left out;
/// so the expression is implied by the formula.
pub(super) fn c_formula(f: &Formula) -> String {
    match f {
        Formula::Row(r) => c_row(r).unwrap_or_else(|| "1".into()),
        Formula::And(fs) => {
            let parts: Vec<String> = fs.iter().map(c_formula).filter(|x| x != "1").collect();
            match parts.len() {
                0 => "1".into(),
                1 => parts[0].clone(),
                _ => parts
                    .iter()
                    .map(|x| format!("({x})"))
                    .collect::<Vec<_>>()
                    .join(" && "),
            }
        }
        Formula::Or(fs) if fs.is_empty() => "0".into(),
        Formula::Or(fs) => {
            let parts: Vec<String> = fs.iter().map(c_formula).collect();
            if parts.iter().any(|x| x == "1") {
                return "1".into();
            }
            parts
                .iter()
                .map(|x| format!("({x})"))
                .collect::<Vec<_>>()
                .join(" || ")
        }
        // `K → C` of symbolic cells says nothing of the scalars alone.
        Formula::Implies(..) => "1".into(),
        Formula::Forall(_, body) => c_formula(body),
        // C's `%` follows the dividend's sign: `x ≡ r (mod m)` is a remainder of `r` or
        // `r − m`. Only a program variable's current value has a C name.
        Formula::Cong(t, r, m) => match &t.kind {
            crate::invariant::TermKind::Var { .. } if !t.entry => {
                if r.sign() == num_bigint::Sign::NoSign {
                    format!("{n} % {m} == 0", n = t.name)
                } else {
                    format!("{n} % {m} == {r} || {n} % {m} == {}", r - m, n = t.name)
                }
            }
            _ => "1".into(),
        },
    }
}

fn c_row(r: &Row) -> Option<String> {
    let mut terms = Vec::new();
    for (c, t) in &r.terms {
        if t.entry {
            return None;
        }
        let name = match &t.kind {
            TermKind::Var { .. } if !t.name.contains('#') => t.name.clone(),
            TermKind::Cell { array, index } => format!("{array}[{index}]"),
            _ => return None,
        };
        terms.push((c.clone(), name));
    }
    let mut e = String::new();
    for (i, (c, name)) in terms.iter().enumerate() {
        let neg = *c < BigInt::from(0);
        let mag = if neg { -c.clone() } else { c.clone() };
        if i == 0 {
            if neg {
                e.push('-');
            }
        } else {
            e.push_str(if neg { " - " } else { " + " });
        }
        if mag != BigInt::from(1) {
            e.push_str(&format!("{mag}*"));
        }
        e.push_str(name);
    }
    let floor = |q: &num_rational::BigRational| q.floor().to_integer();
    let ceil = |q: &num_rational::BigRational| q.ceil().to_integer();
    let lo = r.lo.as_ref().map(|b| {
        if b.strict {
            floor(&b.value) + 1
        } else {
            ceil(&b.value)
        }
    });
    let hi = r.hi.as_ref().map(|b| {
        if b.strict {
            ceil(&b.value) - 1
        } else {
            floor(&b.value)
        }
    });
    Some(match (lo, hi) {
        (Some(l), Some(h)) if l == h => format!("{e} == {l}"),
        (Some(l), Some(h)) => format!("{l} <= {e} && {e} <= {h}"),
        (Some(l), None) => format!("{e} >= {l}"),
        (None, Some(h)) => format!("{e} <= {h}"),
        (None, None) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use yaml_rust2::{Yaml, YamlLoader};

    proptest! {
        /// Any string, written double-quoted, reads back as itself.
        #[test]
        fn a_quoted_scalar_reads_back_as_the_string(x in any::<String>()) {
            let mut text = String::from("k: ");
            quoted(&mut text, &x);
            let docs = YamlLoader::load_from_str(&text).expect("parses");
            prop_assert_eq!(docs[0]["k"].as_str(), Some(x.as_str()));
        }
    }

    /// A segment written as text is the YAML a tree of the same waypoint gives.
    #[test]
    fn a_written_segment_reads_back_as_its_waypoint() {
        let w = Waypoint {
            kind: "function_return",
            line: 11,
            col: 0,
            function: "main".into(),
            constraint: Some("\\result == -1".into()),
        };
        let mut text = String::from("content:\n");
        push_segment(&mut text, "dir/a \"b\".c", &w);
        push_segment(
            &mut text,
            "a.c",
            &Waypoint {
                kind: "target",
                line: 3,
                col: 5,
                function: "f".into(),
                constraint: None,
            },
        );
        let docs = YamlLoader::load_from_str(&text).expect("parses");
        let content = docs[0]["content"].as_vec().expect("a sequence");
        assert_eq!(content.len(), 2);
        let first = &content[0]["segment"][0]["waypoint"];
        assert_eq!(first["type"].as_str(), Some("function_return"));
        assert_eq!(first["action"].as_str(), Some("follow"));
        assert_eq!(
            first["location"]["file_name"].as_str(),
            Some("dir/a \"b\".c")
        );
        assert_eq!(first["location"]["line"].as_i64(), Some(11));
        // A column is at least 1.
        assert_eq!(first["location"]["column"].as_i64(), Some(1));
        assert_eq!(first["location"]["function"].as_str(), Some("main"));
        assert_eq!(
            first["constraint"]["value"].as_str(),
            Some("\\result == -1")
        );
        assert_eq!(first["constraint"]["format"].as_str(), Some("c_expression"));
        let second = &content[1]["segment"][0]["waypoint"];
        assert_eq!(second["type"].as_str(), Some("target"));
        assert!(matches!(second["constraint"], Yaml::BadValue));
    }
}
