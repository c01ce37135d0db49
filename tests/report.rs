//! `lpmc check --report`: the HTML page of a check is well-formed (parsed as
//! XML by roxmltree), has one section per CEGAR iteration, highlights exactly the lines
//! of each iteration's abstract trace, and on the paper's Fig. 1 shows P̂0 and P̂1, the
//! trace through the loop, the core fixing index 1 and the added cell `a[1]` (a
//! snapshot with the times zeroed). Plus the CLI's `--report` and its write errors.

mod common;

use common::lp_dir;
use lpmc::{CheckOptions, Report, SourceFile, TraceCheck, Verdict};
use std::collections::BTreeSet;
use std::process::Command;

/// A check of `lp-programs/NAME` by the CEGAR engine, recorded for a report.
fn explained(name: &str) -> Report {
    let text = std::fs::read_to_string(lp_dir().join(name)).expect("program");
    // A relative name, so that the page does not depend on the checkout's path.
    let loaded = lpmc::load(SourceFile::new(format!("lp-programs/{name}"), text))
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(false)));
    lpmc::check(
        &loaded,
        &CheckOptions {
            explain: true,
            ..CheckOptions::default()
        },
    )
}

/// The report with every time set to zero (the volatile fields of the page).
fn without_times(mut r: Report) -> Report {
    r.time_ms = 0;
    for it in &mut r.iterations {
        it.times = Default::default();
    }
    for e in &mut r.engines {
        e.time_ms = 0;
    }
    r
}

fn classes(n: roxmltree::Node) -> Vec<String> {
    n.attribute("class")
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn has_class(n: roxmltree::Node, c: &str) -> bool {
    classes(n).iter().any(|x| x == c)
}

/// The iteration sections of a page, parsed.
fn iteration_sections<'a>(doc: &'a roxmltree::Document) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("section") && has_class(*n, "iteration"))
        .collect()
}

/// The lines a section's source listing highlights as visited by the trace.
fn visited_lines(section: roxmltree::Node) -> BTreeSet<u32> {
    section
        .descendants()
        .filter(|n| n.has_tag_name("span") && has_class(*n, "visited"))
        .map(|n| {
            n.attribute("data-line")
                .expect("data-line")
                .parse()
                .unwrap()
        })
        .collect()
}

/// Parse a page as XML (its `<!DOCTYPE html>` is a DTD declaration to XML).
fn parse(html: &str) -> Result<roxmltree::Document<'_>, roxmltree::Error> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(html, opts)
}

/// The structural checks every page must pass.
fn check_page(r: &Report, html: &str) {
    let doc = parse(html).unwrap_or_else(|e| panic!("the page is not well-formed: {e}"));
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Self-contained: no external resource, no script.
    for n in doc.descendants().filter(|n| n.is_element()) {
        assert!(!n.has_tag_name("script"), "a script");
        assert!(!n.has_tag_name("link"), "a <link>");
        for a in ["src", "href"] {
            if let Some(v) = n.attribute(a) {
                assert!(v.starts_with('#'), "an external {a}: {v}");
            }
        }
    }
    assert!(html.contains("@page { size: A4"));
    assert!(html.contains("@media print"));
    // One section per iteration, with the lines of its trace highlighted.
    let sections = iteration_sections(&doc);
    assert_eq!(sections.len(), r.iterations.len());
    for (s, it) in sections.iter().zip(&r.iterations) {
        let want: BTreeSet<u32> = it
            .trace
            .as_ref()
            .map(|t| t.lines.iter().map(|l| l.line).collect())
            .unwrap_or_default();
        assert_eq!(visited_lines(*s), want, "iteration {}", it.k);
    }
    // The verdict, as the terminal says it.
    let badge = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("verdict-badge"))
        .expect("a verdict badge");
    assert_eq!(badge.text(), Some(r.verdict().as_str()));
}

#[test]
fn fig1_page_shows_the_refinement_of_the_paper() {
    let r = explained("fig1.lp");
    assert_eq!(r.verdict(), Verdict::Safe);
    assert_eq!(r.iterations.len(), 2);
    let it0 = &r.iterations[0];
    // P̂0 abstracts the read a[i] to u; P̂1 tracks a_1.
    assert!(it0.cells.is_empty());
    assert!(it0
        .abstraction
        .iter()
        .any(|a| a.rewritten && a.text.contains("(u != 1)")));
    assert!(r.iterations[1]
        .abstraction
        .iter()
        .any(|a| a.rewritten && a.text.contains("a_1")));
    // The trace goes around the loop: the loop head (line 7) three times.
    let trace = it0.trace.as_ref().expect("a trace in P̂0");
    assert!(
        trace.lines.iter().any(|l| l.line == 7 && l.visits == 3),
        "{trace:?}"
    );
    // The core fixes the index of the read a[i] in the loop guard to 1.
    match &it0.check {
        Some(TraceCheck::Infeasible { core, accesses, .. }) => {
            assert!(!core.is_empty());
            assert!(
                accesses
                    .iter()
                    .any(|a| !a.write && a.line == 7 && a.index == Some(1)),
                "{accesses:?}"
            );
        }
        other => panic!("the P̂0 trace should be infeasible: {other:?}"),
    }
    assert_eq!(it0.added.len(), 1);
    assert_eq!((it0.added[0].array.as_str(), it0.added[0].index), ("a", 1));
    assert!(it0.added[0].why.contains("read"), "{}", it0.added[0].why);
    assert_eq!(r.iterations[1].tabulation, "converged");

    let r = without_times(r);
    let html = lpmc::html_report(&r);
    check_page(&r, &html);
    assert!(html.contains("Added cell <b class=\"mono\">a[1]</b>"));
    insta::assert_snapshot!("fig1_report", html);
}

#[test]
fn unsafe_and_safe_pages_are_well_formed() {
    for name in ["bubblesort.lp", "array_init.c", "counter_input_unsafe.lp"] {
        let r = explained(name);
        let html = lpmc::html_report(&r);
        check_page(&r, &html);
        if r.verdict() == Verdict::Unsafe {
            // The replayed run is on the page, in the verdict and in the last iteration.
            assert!(html.contains("The replayed run"), "{name}");
            assert!(matches!(
                r.iterations.last().and_then(|i| i.check.as_ref()),
                Some(TraceCheck::Feasible { run: Some(_) })
            ));
        }
    }
}

/// A refinement that keeps a dead read index says so, in the iteration it follows and in
/// the JSON.
#[test]
fn a_kept_variable_is_on_the_page() {
    let r = explained("first_scan_unsafe.lp");
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
    let html = lpmc::html_report(&r);
    check_page(&r, &html);
    assert!(
        r.iterations.iter().any(|i| i.kept_live == ["lo"]),
        "no iteration kept lo"
    );
    assert!(html.contains("Kept <b class=\"mono\">lo</b>"));
}

#[test]
fn program_text_is_escaped() {
    let src = "// <script>alert('x')</script> & \"q\"\nvoid main() { int x; x = u; if (x < 1 && x > -1) { ERROR: ; } }\n";
    let loaded = lpmc::load(SourceFile::new("<evil>&.lp", src)).expect("loads");
    let r = lpmc::check(
        &loaded,
        &CheckOptions {
            explain: true,
            ..CheckOptions::default()
        },
    );
    let html = lpmc::html_report(&r);
    check_page(&r, &html);
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)"));
    assert!(html.contains("&lt;evil&gt;&amp;.lp"));
}

#[test]
fn without_explain_the_json_has_the_iterations_but_not_the_program() {
    let text = std::fs::read_to_string(lp_dir().join("fig1.lp")).unwrap();
    let loaded = lpmc::load(SourceFile::new("fig1.lp", text)).unwrap();
    let r = lpmc::check(&loaded, &CheckOptions::default());
    let v: serde_json::Value = serde_json::to_value(&r).unwrap();
    for key in [
        "verdict",
        "reason",
        "refinements",
        "cells",
        "time_ms",
        "trace",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let its = v["iterations"].as_array().expect("iterations");
    assert_eq!(its.len(), 2);
    assert_eq!(its[0]["added"][0]["index"], 1);
    assert_eq!(its[0]["check"]["result"], "infeasible");
    assert!(its[0].get("abstraction").is_none());
    assert!(v.get("program").is_none());
}

fn lpmc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lpmc"))
}

#[test]
fn cli_writes_the_report_and_fails_clearly_when_it_cannot() {
    let dir = std::env::temp_dir().join(format!("lpmc-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("fig1.html");
    let st = lpmc()
        .args(["check", "--engine", "cegar", "--report"])
        .arg(&out)
        .arg(lp_dir().join("fig1.lp"))
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(0));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(parse(&html).is_ok());
    assert!(html.contains("id=\"iteration-1\""));
    // A folder that does not exist: a clear message, exit 2.
    let st = lpmc()
        .args(["check", "--report"])
        .arg(dir.join("no/such/dir/x.html"))
        .arg(lp_dir().join("fig1.lp"))
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(2));
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(err.contains("cannot write the report"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn regress_page_colours_verdicts_and_links_reports() {
    use lpmc::tools::regress::{EngineResult, Row};
    let res = |v: Option<Verdict>, ms: u128| {
        EngineResult::status_only(v.map(|v| v.as_str()).unwrap_or("TIMEOUT"), v, ms)
    };
    let rows = vec![
        Row {
            program: "lp-programs/<a&b>.lp".into(),
            expected: Some(Verdict::Safe),
            cegar: res(Some(Verdict::Safe), 12),
            bmc: res(Some(Verdict::Unsafe), 300),
            portfolio: res(Some(Verdict::Safe), 10),
            cbmc: None,
        },
        Row {
            program: "p2.lp".into(),
            expected: None,
            cegar: res(None, 5000),
            bmc: res(Some(Verdict::Unknown), 1),
            portfolio: res(None, 5000),
            cbmc: None,
        },
    ];
    let link = |i: usize, _: &Row| (i == 0).then(|| "checks/001-x.html".to_string());
    let html = lpmc::tools::regress_page::render_html(&rows, &link);
    let doc = parse(&html).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    let trs: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.parent().is_some_and(|p| p.has_tag_name("tbody")))
        .collect();
    assert_eq!(trs.len(), 2);
    // The wrong bmc verdict of the first row is marked, the link is there, names escaped.
    assert!(has_class(trs[0], "wrong"));
    assert!(!has_class(trs[1], "wrong"));
    assert_eq!(
        trs[0]
            .descendants()
            .filter(|n| n.has_tag_name("td") && has_class(*n, "wrong"))
            .count(),
        1
    );
    assert!(html.contains("<a href=\"checks/001-x.html\">lp-programs/&lt;a&amp;b&gt;.lp</a>"));
    assert!(html.contains("UNSAFE (WRONG)"));
    // One time bar per engine and row.
    let bars = doc
        .descendants()
        .filter(|n| n.has_tag_name("svg") && has_class(*n, "tbar"))
        .count();
    assert_eq!(bars, 6);
}
