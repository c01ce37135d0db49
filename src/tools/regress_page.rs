//! `lpmc regress --report out.html`: the Table 2 comparison as one self-contained HTML
//! page, from the typed rows of [`crate::tools::regress`]: per program the
//! expected verdict and, per engine, the verdict coloured by its judgement (correct,
//! WRONG, undecided) and a time bar; each program links to its own check report when
//! `--report-dir` wrote them.

use crate::tools::regress::{judged, summary, EngineResult, Judgement, Row};
use crate::{html_bar, html_escape as escape, html_page_styled, html_verdict_class, Verdict};
use std::fmt::Write;

/// Width of a time bar, px.
const BAR_PX: f64 = 60.0;

fn judgement_class(j: Judgement) -> &'static str {
    match j {
        Judgement::Correct => "correct",
        Judgement::Wrong => "wrong",
        Judgement::Undecided => "undecided",
        Judgement::Unexpected => "unexpected",
    }
}

fn engine_cells(expected: Option<Verdict>, r: &EngineResult, max_ms: f64) -> String {
    let j = judged(expected, r);
    let class = r.verdict.map(html_verdict_class).unwrap_or("none");
    let label = if j == Judgement::Wrong {
        format!("{} (WRONG)", r.status)
    } else {
        r.status.clone()
    };
    format!(
        "<td class=\"verdict {}\" title=\"{}\"><span class=\"badge {class}\">{}</span></td><td class=\"num\">{} {}</td>",
        judgement_class(j),
        escape(&r.reason),
        escape(&label),
        r.time_ms,
        html_bar(r.time_ms as f64, max_ms, BAR_PX, class)
    )
}

const EXTRA_CSS: &str = "
td.verdict.wrong { outline: 3px solid var(--unsafe); }
td.verdict.undecided .badge, .badge.none { background: #888; }
table.regress td { white-space: nowrap; }
table.regress td.program { white-space: normal; }
.legend span { margin-right: 12px; }
";

/// The page. `link(i, row)` gives the href of the `i`-th row's check report, if any.
pub fn render_html(rows: &[Row], link: &dyn Fn(usize, &Row) -> Option<String>) -> String {
    let max_ms = rows
        .iter()
        .flat_map(|r| {
            [&r.cegar, &r.bmc, &r.portfolio]
                .into_iter()
                .chain(r.cbmc.as_ref())
                .map(|e| e.time_ms as f64)
        })
        .fold(0.0f64, f64::max);
    let with_cbmc = rows.iter().any(|r| r.cbmc.is_some());
    let mut b = String::new();
    let _ = write!(
        b,
        "<header><h1>lpmc regress: {} program(s)</h1><p class=\"muted\">{}</p><p class=\"legend\"><span><span class=\"badge safe\">SAFE</span> <span class=\"badge unsafe\">UNSAFE</span> <span class=\"badge none\">UNKNOWN</span> the verdicts</span><span>a red frame: WRONG (contradicts the expectation)</span><span>bars: time, on one scale (the longest: {} ms)</span></p></header>",
        rows.len(),
        escape(summary(rows).trim()),
        max_ms as u128
    );
    b.push_str("<table class=\"regress\"><thead><tr><th>program</th><th>expected</th><th>lpmc (CEGAR)</th><th class=\"num\">ms</th><th class=\"num\">refinements</th><th class=\"num\">cells</th><th>bmc</th><th class=\"num\">ms</th><th>all</th><th class=\"num\">ms</th>");
    if with_cbmc {
        b.push_str("<th>cbmc</th><th class=\"num\">ms</th>");
    }
    b.push_str("</tr></thead><tbody>");
    for (i, r) in rows.iter().enumerate() {
        let name = match link(i, r) {
            Some(href) => format!("<a href=\"{}\">{}</a>", escape(&href), escape(&r.program)),
            None => escape(&r.program),
        };
        let expected = match r.expected {
            Some(v) => format!(
                "<span class=\"badge {}\">{}</span>",
                html_verdict_class(v),
                v.as_str()
            ),
            None => "-".to_string(),
        };
        let _ = write!(
            b,
            "<tr class=\"{}\"><td class=\"program mono\">{name}</td><td>{expected}</td>{}<td class=\"num\">{}</td><td class=\"num\">{}</td>{}{}",
            if r.wrong() { "wrong" } else { "" },
            engine_cells(r.expected, &r.cegar, max_ms),
            r.cegar.refinements.map(|x| x.to_string()).unwrap_or_default(),
            r.cegar.cells.map(|x| x.to_string()).unwrap_or_default(),
            engine_cells(r.expected, &r.bmc, max_ms),
            engine_cells(r.expected, &r.portfolio, max_ms),
        );
        if with_cbmc {
            match &r.cbmc {
                Some(c) => b.push_str(&engine_cells(r.expected, c, max_ms)),
                None => b.push_str("<td>-</td><td></td>"),
            }
        }
        b.push_str("</tr>");
    }
    b.push_str("</tbody></table>");
    html_page_styled("lpmc regress", EXTRA_CSS, &b)
}
