//! The HTML report of a check (`lpmc check --report out.html`): one
//! self-contained page (inline CSS and SVG, no script, no external resource) that shows
//! the program and its CFG, one section per CEGAR iteration (the precision, P̂k with its
//! rewritten statements, the abstract error trace on the source, the trace check with
//! the unsat core and the accesses whose index it fixes, the cells added), the verdict,
//! and a timeline of where the time went. An output layer: everything on the page comes
//! from the typed [`Report`] (the one `--json` prints); program text is HTML-escaped.
//! The markup is well-formed XML as well as HTML, reads without script, and prints on A4.

mod chart;
mod graph;

pub use chart::{bar, stacked, Bar};

use crate::driver::Report;
use crate::iteration::{Iteration, ProgramView, TraceCheck};
use crate::report::{Counterexample, Outcome, Verdict};
use graph::GNode;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Escape text for HTML and XML (element content and quoted attributes).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The page's style: screen and A4 print.
const CSS: &str = r#"
:root { --safe: #1b7f3b; --unsafe: #b3261e; --unknown: #8a6d00; --trace: #fff3b0; --core: #f4a261; --rw: #dbeafe; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1150px; padding: 0 16px 40px; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; margin: 18px 0 6px; }
h2 { font-size: 1.25em; border-bottom: 2px solid #ddd; padding-bottom: 3px; margin-top: 28px; }
h3 { font-size: 1.05em; margin: 16px 0 6px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
nav { font-size: 0.9em; margin: 8px 0; }
nav a { margin-right: 10px; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 4px; color: #fff; font-weight: bold; letter-spacing: 0.03em; }
.safe { background: var(--safe); } .unsafe { background: var(--unsafe); } .unknown { background: var(--unknown); }
.verdict-line { font-size: 1.05em; }
pre.src { background: #fafafa; border: 1px solid #e3e3e3; padding: 6px 0; overflow-x: auto; margin: 6px 0; }
pre.src .l { display: block; padding: 0 8px 0 0; white-space: pre; }
pre.src .no { display: inline-block; width: 3.2em; color: #999; text-align: right; margin-right: 10px; user-select: none; }
pre.src .visited { background: var(--trace); }
pre.src .core { box-shadow: inset 4px 0 0 var(--core); font-weight: 600; }
pre.src .visits { color: #7a5b00; font-size: 0.85em; margin-left: 12px; }
pre.src .core-mark { color: #a14400; font-size: 0.85em; margin-left: 8px; }
table { border-collapse: collapse; margin: 6px 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 2px 7px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num, th.num { text-align: right; }
tr.rewritten td.text { background: var(--rw); }
tr.core td { background: #fde2cc; }
.muted { color: #666; }
.cells { font-weight: 600; }
.added { background: #e6f4ea; border-left: 4px solid var(--safe); padding: 4px 8px; margin: 4px 0; }
.note { background: #f6f6f6; border-left: 4px solid #aaa; padding: 4px 8px; }
.cols { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.cols > div { min-width: 0; }
.graph { overflow-x: auto; max-width: 100%; }
svg.cfg text { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 11px; fill: #222; }
svg.cfg .proc-name { font-weight: bold; font-size: 12px; }
svg.cfg .node rect { fill: #fff; stroke: #777; stroke-width: 1; }
svg.cfg .node.rewritten rect { fill: var(--rw); }
svg.cfg .node.trace rect { fill: var(--trace); stroke: #a08000; }
svg.cfg .node.core rect { stroke: #d35400; stroke-width: 2.5; }
svg.cfg .node.error rect { fill: #fde0dc; stroke: var(--unsafe); stroke-width: 1.5; }
svg.cfg .edge { fill: none; stroke: #888; stroke-width: 1; }
svg.cfg .edge.summary { stroke-dasharray: 4 3; }
svg.cfg .edge.to-error { stroke: var(--unsafe); }
svg.cfg .edge.on-trace { stroke: #c28f00; stroke-width: 2.5; }
svg.cfg .edge-label { font-size: 9px; fill: #555; }
svg.chart text { font-size: 11px; fill: #333; }
svg.chart .abstract { fill: #9aa5b1; } svg.chart .tabulate { fill: #4e79a7; } svg.chart .trace { fill: #f28e2b; }
svg.chart .refine { fill: #59a14f; } svg.chart .record { fill: #d4d4d4; }
svg.tbar .safe { fill: var(--safe); } svg.tbar .unsafe { fill: var(--unsafe); } svg.tbar .unknown { fill: var(--unknown); } svg.tbar .none { fill: #bbb; }
section.iteration { border-top: 1px solid #eee; }
footer { margin-top: 30px; font-size: 0.8em; color: #777; }
@page { size: A4; margin: 14mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav { display: none; }
  section.iteration, section#verdict, section#timeline { break-before: page; }
  table, pre.src, svg, .added { break-inside: avoid; }
  pre.src { overflow: visible; white-space: pre-wrap; }
  .graph { overflow: visible; }
  svg.cfg { max-width: 100%; height: auto; }
  a { color: inherit; text-decoration: none; }
}
"#;

/// A complete page: doctype, head with the style, `body` (already HTML).
pub fn page(title: &str, body: &str) -> String {
    page_styled(title, "", body)
}

/// [`page`] with more CSS rules (`css`, not escaped: our own text only).
pub fn page_styled(title: &str, css: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>{}</title>\n<style>{CSS}{css}</style>\n</head>\n<body>\n{body}\n<footer>Generated by lpmc {}. Self-contained: no script, no external resource.</footer>\n</body>\n</html>\n",
        escape(title),
        env!("CARGO_PKG_VERSION")
    )
}

/// The CSS class of a verdict.
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Safe => "safe",
        Verdict::Unsafe => "unsafe",
        Verdict::Unknown => "unknown",
    }
}

fn cells_text(cells: &BTreeMap<String, Vec<i64>>) -> String {
    if cells.is_empty() {
        return "none: every array read is the undefined value u, every array write is a skip"
            .into();
    }
    cells
        .iter()
        .map(|(a, ks)| {
            ks.iter()
                .map(|k| format!("{a}[{k}]"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A source listing; `visits` marks lines (with the visit counts), `core` the lines of
/// the unsat core.
fn source_listing(
    source: &str,
    visits: &BTreeMap<u32, u32>,
    core: &BTreeSet<u32>,
    counts: bool,
) -> String {
    let mut s = String::from("<pre class=\"src\">");
    for (i, text) in source.lines().enumerate() {
        let line = i as u32 + 1;
        let mut class = String::from("l");
        let v = visits.get(&line).copied();
        if v.is_some() {
            class.push_str(" visited");
        }
        if core.contains(&line) {
            class.push_str(" core");
        }
        // Only the program's listing has ids (they must be unique).
        let id = if counts {
            String::new()
        } else {
            format!(" id=\"L{line}\"")
        };
        let _ = write!(s, "<span class=\"{class}\"{id} data-line=\"{line}\"");
        if let Some(v) = v {
            let _ = write!(s, " data-visits=\"{v}\"");
        }
        let _ = write!(
            s,
            "><span class=\"no\">{line}</span>{}",
            escape(text.trim_end_matches('\r'))
        );
        if let (Some(v), true) = (v, counts) {
            if v > 1 {
                let _ = write!(s, "<span class=\"visits\">×{v}</span>");
            }
        }
        if core.contains(&line) && counts {
            s.push_str("<span class=\"core-mark\">◀ core</span>");
        }
        s.push_str("</span>");
    }
    s.push_str("</pre>");
    s
}

fn program_section(p: &ProgramView) -> String {
    let mut s =
        String::from("<section id=\"program\">\n<h2>The program</h2>\n<div class=\"cols\">");
    let _ = write!(
        s,
        "<div><h3>Source: <code>{}</code></h3>{}</div>",
        escape(&p.name),
        source_listing(&p.source, &BTreeMap::new(), &BTreeSet::new(), false)
    );
    let nodes: Vec<GNode> = p
        .nodes
        .iter()
        .filter(|n| n.proc.is_some())
        .map(|n| GNode {
            id: n.node,
            proc: n.proc,
            label: n.label.clone(),
            succs: n.succs.clone(),
            class: String::new(),
        })
        .collect();
    s.push_str("<div><h3>Control-flow graph</h3>");
    match graph::svg(&nodes, &p.procs, &BTreeSet::new(), "the CFG of the program") {
        Some(svg) => {
            let _ = write!(s, "<div class=\"graph\">{svg}</div>");
        }
        None => {
            let _ = write!(
                s,
                "<p class=\"muted\">The CFG has {} nodes, more than the {} drawn.</p>",
                p.nodes.len(),
                graph::MAX_NODES
            );
        }
    }
    s.push_str("</div></div>\n</section>\n");
    s
}

/// Trace steps shown at each end of a long trace.
const STEPS_EDGE: usize = 150;

fn shown(k: usize, n: usize) -> bool {
    n <= 2 * STEPS_EDGE || k < STEPS_EDGE || k >= n - STEPS_EDGE
}

fn iteration_section(it: &Iteration, pos: usize, program: Option<&ProgramView>) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<section class=\"iteration\" id=\"iteration-{pos}\" data-k=\"{}\">\n<h2>Iteration {pos}: the abstraction P̂{}</h2>\n",
        it.k, it.k
    );
    // Precision.
    let _ = write!(
        s,
        "<h3>Precision</h3><p>Tracked array cells: <span class=\"cells\">{}</span>. Symbolic cells: {}.</p>",
        escape(&cells_text(&it.cells)),
        if it.symbolic.is_empty() {
            "none".to_string()
        } else {
            it.symbolic
                .iter()
                .map(|a| format!("<b class=\"mono\">{}_k</b> (ghost index <span class=\"mono\">k#{}</span>)", escape(a), escape(a)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    // P̂k.
    let core_steps: BTreeSet<usize> = match &it.check {
        Some(TraceCheck::Infeasible { core, .. }) => core.iter().copied().collect(),
        _ => BTreeSet::new(),
    };
    let steps = it.trace.as_ref().map(|t| t.steps.as_slice()).unwrap_or(&[]);
    let trace_nodes: BTreeSet<u32> = steps.iter().map(|st| st.node).collect();
    let core_nodes: BTreeSet<u32> = steps
        .iter()
        .filter(|st| core_steps.contains(&st.step))
        .map(|st| st.node)
        .collect();
    if !it.abstraction.is_empty() {
        let rewritten = it.abstraction.iter().filter(|a| a.rewritten).count();
        let _ = write!(
            s,
            "<h3>P̂{} as a program</h3><p class=\"muted\">One statement per CFG node; the {rewritten} statement(s) that read, write or initialise an array are rewritten (highlighted, with the original beside them).</p>",
            it.k
        );
        s.push_str("<table class=\"abstraction\"><thead><tr><th class=\"num\">node</th><th class=\"num\">line</th><th>proc</th><th>P̂");
        let _ = write!(
            s,
            "{}</th><th>in P</th><th>next</th></tr></thead><tbody>",
            it.k
        );
        for a in &it.abstraction {
            let _ = write!(
                s,
                "<tr class=\"{}\" data-node=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"text mono\">{}</td><td class=\"mono muted\">{}</td><td class=\"mono\">{}</td></tr>",
                if a.rewritten { "rewritten" } else { "" },
                a.node,
                a.node,
                if a.line > 0 { a.line.to_string() } else { String::new() },
                escape(&a.proc),
                escape(&a.text),
                if a.rewritten { escape(&a.original) } else { String::new() },
                a.succs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
            );
        }
        s.push_str("</tbody></table>");
    }
    // Tabulation and trace.
    let _ = write!(
        s,
        "<h3>Tabulation</h3><p>The tabulation of P̂{}: <b>{}</b>.</p>",
        it.k,
        escape(if it.tabulation.is_empty() {
            "did not end (stopped)"
        } else {
            &it.tabulation
        })
    );
    if let Some(t) = &it.trace {
        let visits: BTreeMap<u32, u32> = t.lines.iter().map(|l| (l.line, l.visits)).collect();
        let core_lines: BTreeSet<u32> = match &it.check {
            Some(TraceCheck::Infeasible { core_lines, .. }) => core_lines.iter().copied().collect(),
            _ => BTreeSet::new(),
        };
        let _ = write!(
            s,
            "<h3>The abstract error trace</h3><p>{} steps through lines {}. Highlighted: the lines it visits (×n: visits of a line's busiest node, e.g. a loop head); marked ◀ core: the lines of the unsat core's steps.</p>",
            t.length,
            escape(
                &t.lines
                    .iter()
                    .map(|l| if l.visits > 1 {
                        format!("{} (×{})", l.line, l.visits)
                    } else {
                        l.line.to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
        s.push_str("<div class=\"cols\"><div>");
        if let Some(p) = program {
            s.push_str(&source_listing(&p.source, &visits, &core_lines, true));
        }
        s.push_str("</div>");
        // P̂k's graph with the trace.
        if let (Some(p), false) = (program, it.abstraction.is_empty()) {
            let text: BTreeMap<u32, &crate::iteration::AbstractStmt> =
                it.abstraction.iter().map(|a| (a.node, a)).collect();
            let nodes: Vec<GNode> = p
                .nodes
                .iter()
                .filter(|n| n.proc.is_some())
                .map(|n| {
                    let a = text.get(&n.node);
                    let mut class = Vec::new();
                    if a.is_some_and(|a| a.rewritten) {
                        class.push("rewritten");
                    }
                    if trace_nodes.contains(&n.node) {
                        class.push("trace");
                    }
                    if core_nodes.contains(&n.node) {
                        class.push("core");
                    }
                    GNode {
                        id: n.node,
                        proc: n.proc,
                        label: a.map(|a| a.text.clone()).unwrap_or_else(|| n.label.clone()),
                        succs: n.succs.clone(),
                        class: class.join(" "),
                    }
                })
                .collect();
            let mut edges: BTreeSet<(u32, u32)> =
                steps.windows(2).map(|w| (w[0].node, w[1].node)).collect();
            if let Some(last) = steps.last() {
                edges.insert((last.node, 0));
            }
            if let Some(svg) = graph::svg(
                &nodes,
                &p.procs,
                &edges,
                &format!("P̂{} with the abstract error trace", it.k),
            ) {
                let _ = write!(s, "<div class=\"graph\">{svg}</div>");
            }
        }
        s.push_str("</div>");
        if !steps.is_empty() {
            s.push_str("<details><summary>The trace, step by step</summary><table class=\"steps\"><thead><tr><th class=\"num\">step</th><th class=\"num\">node</th><th class=\"num\">line</th><th>statement (P)</th></tr></thead><tbody>");
            let n = steps.len();
            for st in steps {
                if !shown(st.step, n) {
                    if st.step == STEPS_EDGE {
                        let _ = write!(
                            s,
                            "<tr><td colspan=\"4\" class=\"muted\">… {} steps omitted …</td></tr>",
                            n - 2 * STEPS_EDGE
                        );
                    }
                    continue;
                }
                let _ = write!(
                    s,
                    "<tr class=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td></tr>",
                    if core_steps.contains(&st.step) { "core" } else { "" },
                    st.step,
                    st.node,
                    st.line,
                    escape(&st.statement)
                );
            }
            s.push_str("</tbody></table></details>");
        }
    }
    // The check.
    if let Some(c) = &it.check {
        s.push_str("<h3>The trace on the original program</h3>");
        match c {
            TraceCheck::Feasible { run } => {
                s.push_str("<p><span class=\"badge unsafe\">feasible</span> The trace is a real execution of the program (its SSA formula over integers and arrays is satisfiable).</p>");
                if let Some(r) = run {
                    s.push_str(&counterexample_tables(r));
                }
            }
            TraceCheck::Infeasible {
                core,
                core_lines,
                accesses,
            } => {
                let _ = write!(
                    s,
                    "<p><span class=\"badge safe\">infeasible</span> The trace is spurious: its SSA formula on the original program is unsatisfiable. The unsat core has {} step(s), on line(s) {}.</p>",
                    if core.is_empty() { "its".to_string() } else { core.len().to_string() },
                    core_lines
                        .iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if !core.is_empty() {
                    s.push_str("<table class=\"core\"><thead><tr><th class=\"num\">core step</th><th class=\"num\">line</th><th>statement</th></tr></thead><tbody>");
                    for k in core {
                        if let Some(st) = steps.get(*k) {
                            let _ = write!(
                                s,
                                "<tr class=\"core\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td></tr>",
                                st.step,
                                st.line,
                                escape(&st.statement)
                            );
                        }
                    }
                    s.push_str("</tbody></table>");
                }
                if !accesses.is_empty() {
                    s.push_str("<p>The array accesses of the core's steps, and the index the trace before them fixes:</p><table class=\"accesses\"><thead><tr><th class=\"num\">step</th><th class=\"num\">line</th><th>access</th><th>kind</th><th>index fixed to</th></tr></thead><tbody>");
                    for a in accesses {
                        let _ = write!(
                            s,
                            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"mono\">{}</td></tr>",
                            a.step,
                            a.line,
                            escape(&a.access),
                            if a.write { "write" } else { "read" },
                            match a.index {
                                Some(k) => k.to_string(),
                                None => "not fixed".into(),
                            }
                        );
                    }
                    s.push_str("</tbody></table>");
                }
            }
            TraceCheck::Unknown { reason } => {
                let _ = write!(
                    s,
                    "<p><span class=\"badge unknown\">unknown</span> The solver did not decide: {}</p>",
                    escape(reason)
                );
            }
            TraceCheck::Invalid { reason } => {
                let _ = write!(
                    s,
                    "<p><span class=\"badge unknown\">invalid</span> The abstract trace is not a path of the program: {}</p>",
                    escape(reason)
                );
            }
        }
    }
    // The refinement.
    if !it.added.is_empty() {
        s.push_str("<h3>Refinement</h3>");
        for a in &it.added {
            let _ = write!(
                s,
                "<p class=\"added\">Added cell <b class=\"mono\">{}[{}]</b>: {}.</p>",
                escape(&a.array),
                a.index,
                escape(&a.why)
            );
        }
    } else if !it.added_symbolic.is_empty() {
        s.push_str("<h3>Refinement</h3>");
        for a in &it.added_symbolic {
            let _ = write!(
                s,
                "<p class=\"added\">Added the symbolic cell <b class=\"mono\">{}_k</b>: the core reads the array at indices it does not fix (or its constant cells kept growing), so one cell at an arbitrary ghost index stands for all.</p>",
                escape(a)
            );
        }
    } else if it.added_second_ghost {
        s.push_str("<h3>Refinement</h3><p class=\"added\">Added a second ghost index <b class=\"mono\">k2 &gt; k</b> with a cell <b class=\"mono\">a_k2</b> per symbolic array: the trace fixes no cell and the widening learnt nothing from it, so the property may relate two cells (as sortedness does).</p>");
    } else if !it.kept_live.is_empty() {
        let _ = write!(
            s,
            "<h3>Refinement</h3><p class=\"added\">Kept <b class=\"mono\">{}</b> up to the array reads that follow, where it was dead: the core reads a cell at an index it is in, and a later read took its value from a partner fact of a run with another value of it.</p>",
            escape(&it.kept_live.join(", "))
        );
    } else if !it.widening.is_empty() {
        s.push_str("<h3>Refinement of the widening</h3><p>The trace went through widened facts and fixes no new cell; the next tabulation widens with:</p><ul>");
        for w in &it.widening {
            let _ = write!(s, "<li class=\"mono\">{}</li>", escape(w));
        }
        s.push_str("</ul>");
    } else if matches!(it.check, Some(TraceCheck::Infeasible { .. })) {
        s.push_str("<h3>Refinement</h3><p class=\"note\">No array cell was added after this iteration (see the verdict).</p>");
    }
    s.push_str("\n</section>\n");
    s
}

fn counterexample_tables(c: &Counterexample) -> String {
    let mut s = String::new();
    if !c.inputs.is_empty() {
        s.push_str("<table class=\"inputs\"><thead><tr><th class=\"num\">step</th><th class=\"num\">line</th><th>input</th><th class=\"num\">value</th></tr></thead><tbody>");
        for i in &c.inputs {
            let _ = write!(
                s,
                "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td><td class=\"num mono\">{}</td></tr>",
                i.step,
                i.line,
                escape(&i.what),
                escape(&i.value)
            );
        }
        s.push_str("</tbody></table>");
    }
    let _ = write!(
        s,
        "<p>The replayed run ({} steps, the error at line {}):</p><table class=\"run\"><thead><tr><th class=\"num\">step</th><th class=\"num\">line</th><th>proc</th><th>statement</th><th>values set</th></tr></thead><tbody>",
        c.length, c.error_line
    );
    let n = c.length;
    for st in &c.steps {
        if !shown(st.step, n) {
            if st.step == STEPS_EDGE {
                let _ = write!(
                    s,
                    "<tr><td colspan=\"5\" class=\"muted\">… {} steps omitted …</td></tr>",
                    n - 2 * STEPS_EDGE
                );
            }
            continue;
        }
        let _ = write!(
            s,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>",
            st.step,
            st.line,
            escape(&st.proc),
            escape(&st.statement),
            escape(&st.changed.join(", "))
        );
    }
    s.push_str("</tbody></table>");
    s
}

fn verdict_section(r: &Report) -> String {
    let v = r.verdict();
    let mut s = String::from("<section id=\"verdict\">\n<h2>The verdict</h2>\n");
    let engine = match &r.outcome {
        Outcome::Safe(p) => Some(p.engine),
        Outcome::Unsafe(c) => Some(c.engine),
        Outcome::Unknown(_) => None,
    };
    let _ = write!(
        s,
        "<p class=\"verdict-line\"><span class=\"badge {}\" id=\"verdict-badge\">{}</span> {}</p>",
        verdict_class(v),
        v.as_str(),
        match engine {
            Some(e) => format!("decided by the <b>{}</b> engine", e.as_str()),
            None => "no engine decided".into(),
        }
    );
    let _ = write!(s, "<p><b>Reason:</b> {}</p>", escape(&r.outcome.reason()));
    if let Some(a) = match &r.outcome {
        Outcome::Safe(p) => p.assumption(),
        _ => None,
    } {
        let _ = write!(s, "<p><b>Assumption:</b> {}</p>", escape(&a));
    }
    match &r.outcome {
        Outcome::Safe(p) => {
            if p.abstraction.is_some() {
                let _ = write!(
                    s,
                    "<p><b>Final precision:</b> <span class=\"cells\">{}</span></p>",
                    escape(&cells_text(&p.cells))
                );
            }
            if !p.invariants.is_empty() {
                s.push_str("<table class=\"invariants\"><thead><tr><th>at</th><th>invariant</th></tr></thead><tbody>");
                for i in &p.invariants {
                    let _ = write!(
                        s,
                        "<tr><td>{}</td><td class=\"mono\">{}</td></tr>",
                        escape(&i.at),
                        escape(&i.text())
                    );
                }
                s.push_str("</tbody></table>");
            }
        }
        Outcome::Unsafe(c) => s.push_str(&counterexample_tables(c)),
        Outcome::Unknown(g) => {
            let _ = write!(
                s,
                "<p><b>Why unknown</b> ({}): {}</p>",
                escape(g.kind()),
                escape(&g.to_string())
            );
        }
    }
    if engine.is_some_and(|e| e != crate::report::Engine::Cegar) {
        let _ = write!(
            s,
            "<p class=\"note\">The CEGAR engine did not decide: the iterations above are the {} it ran before it was stopped.</p>",
            r.iterations.len()
        );
    }
    if !r.engines.is_empty() {
        s.push_str("<table class=\"engines\"><thead><tr><th>engine</th><th>verdict</th><th class=\"num\">ms</th><th>reason</th></tr></thead><tbody>");
        for e in &r.engines {
            let _ = write!(
                s,
                "<tr><td>{}</td><td><span class=\"badge {}\">{}</span></td><td class=\"num\">{}</td><td>{}</td></tr>",
                e.engine.as_str(),
                verdict_class(e.verdict),
                e.verdict.as_str(),
                e.time_ms,
                escape(&e.reason)
            );
        }
        s.push_str("</tbody></table>");
    }
    let _ = write!(
        s,
        "<p class=\"muted\">Refinements: {}. Semantics: {}. Time: <span class=\"time\">{}</span> ms.</p>\n</section>\n",
        r.refinements,
        escape(&r.semantics.to_string()),
        r.time_ms
    );
    s
}

fn timeline_section(r: &Report) -> String {
    let mut s = String::from("<section id=\"timeline\">\n<h2>Where the time went</h2>\n");
    if r.iterations.is_empty() {
        s.push_str("<p class=\"muted\">No CEGAR iteration ran.</p></section>\n");
        return s;
    }
    let bars: Vec<Bar> = r
        .iterations
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let t = &it.times;
            Bar {
                label: format!("iteration {i} (P̂{})", it.k),
                segments: vec![
                    (t.abstract_ms, "abstract"),
                    (t.tabulate_ms, "tabulate"),
                    (t.trace_ms, "trace"),
                    (t.refine_ms, "refine"),
                    (t.record_ms, "record"),
                ],
                note: format!(
                    "{:.1} ms, {} SMT calls",
                    t.abstract_ms + t.tabulate_ms + t.trace_ms + t.refine_ms + t.record_ms,
                    t.smt_calls
                ),
            }
        })
        .collect();
    s.push_str(&stacked(
        &bars,
        &[
            ("abstract", "abstraction"),
            ("tabulate", "tabulation"),
            ("trace", "trace check"),
            ("refine", "refinement"),
            ("record", "report"),
        ],
        "time per iteration and phase",
    ));
    s.push_str("<table class=\"times\"><thead><tr><th>iteration</th><th class=\"num\">abstraction ms</th><th class=\"num\">tabulation ms</th><th class=\"num\">engine steps</th><th class=\"num\">trace check ms</th><th class=\"num\">refinement ms</th><th class=\"num\">SMT calls</th><th class=\"num\">report ms</th></tr></thead><tbody>");
    for (i, it) in r.iterations.iter().enumerate() {
        let t = &it.times;
        let _ = write!(
            s,
            "<tr><td>{i} (P̂{})</td><td class=\"num ms\">{:.2}</td><td class=\"num ms\">{:.2}</td><td class=\"num\">{}</td><td class=\"num ms\">{:.2}</td><td class=\"num ms\">{:.2}</td><td class=\"num\">{}</td><td class=\"num ms\">{:.2}</td></tr>",
            it.k,
            t.abstract_ms,
            t.tabulate_ms,
            t.engine_steps,
            t.trace_ms,
            t.refine_ms,
            t.smt_calls,
            t.record_ms
        );
    }
    s.push_str("</tbody></table>\n</section>\n");
    s
}

/// The report of a check as one self-contained HTML page.
pub fn report(r: &Report) -> String {
    let name = r
        .program
        .as_ref()
        .map(|p| p.name.clone())
        .unwrap_or_else(|| "program".into());
    let v = r.verdict();
    let mut body = String::new();
    let _ = write!(
        body,
        "<header><h1>lpmc: <code>{}</code> is <span class=\"badge {}\">{}</span></h1><p class=\"muted\">{} CEGAR iteration(s), {} refinement(s), {} ms. Highlights: <span style=\"background:var(--trace)\">trace</span>, <span style=\"background:#fde2cc\">unsat core</span>, <span style=\"background:var(--rw)\">rewritten by the abstraction</span>.</p></header>",
        escape(&name),
        verdict_class(v),
        v.as_str(),
        r.iterations.len(),
        r.refinements,
        r.time_ms
    );
    body.push_str("\n<nav>");
    if r.program.is_some() {
        body.push_str("<a href=\"#program\">Program</a>");
    }
    for (i, it) in r.iterations.iter().enumerate() {
        let _ = write!(
            body,
            "<a href=\"#iteration-{i}\">Iteration {i} (P̂{})</a>",
            it.k
        );
    }
    body.push_str("<a href=\"#verdict\">Verdict</a><a href=\"#timeline\">Timeline</a></nav>\n");
    if let Some(p) = &r.program {
        body.push_str(&program_section(p));
    }
    for (i, it) in r.iterations.iter().enumerate() {
        body.push_str(&iteration_section(it, i, r.program.as_ref()));
    }
    body.push_str(&verdict_section(r));
    body.push_str(&timeline_section(r));
    page(&format!("lpmc report: {name}"), &body)
}
