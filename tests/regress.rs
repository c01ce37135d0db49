//! `lpmc regress`: expectations, judgements, table rendering and exit status (pure), plus
//! one end-to-end run on small programs.

mod common;

use common::lp_dir;
use lpmc::tools::regress::{
    collect, exit_status, expected_verdict, judge, render, EngineResult, Format, Judgement, Row,
};
use lpmc::Verdict;
use std::path::Path;
use std::process::Command;

fn res(v: Option<Verdict>) -> EngineResult {
    let status = v.map(|v| v.as_str()).unwrap_or("TIMEOUT");
    EngineResult::status_only(status, v, 12)
}

fn row(expected: Option<Verdict>, cegar: Option<Verdict>, bmc: Option<Verdict>) -> Row {
    Row {
        program: "p.lp".into(),
        expected,
        cegar: res(cegar),
        bmc: res(bmc),
        portfolio: res(cegar.or(bmc)),
        cbmc: None,
    }
}

#[test]
fn expectations_from_headers_yml_and_table2() {
    let p = Path::new("x.lp");
    assert_eq!(
        expected_verdict(p, "// expect: safe\nvoid main(){}", None),
        Some(Verdict::Safe)
    );
    assert_eq!(
        expected_verdict(p, "// expect: unsafe\n", None),
        Some(Verdict::Unsafe)
    );
    assert_eq!(expected_verdict(p, "// expect: unknown\n", None), None);
    assert_eq!(expected_verdict(p, "void main(){}", None), None);
    let yml = "format_version: '2.0'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n";
    assert_eq!(
        expected_verdict(Path::new("t.c"), "", Some(yml)),
        Some(Verdict::Unsafe)
    );
    let yml = yml.replace("false", "true");
    assert_eq!(
        expected_verdict(Path::new("t.c"), "", Some(&yml)),
        Some(Verdict::Safe)
    );
    let e = |n: &str| expected_verdict(Path::new(n), "", None);
    assert_eq!(e("eureka/sequential_swap_klee.c"), Some(Verdict::Safe));
    assert_eq!(e("eureka/bubblesort_klee.c"), Some(Verdict::Unsafe));
    assert_eq!(
        e("eureka/bubblesort_inner_loop_klee.c"),
        Some(Verdict::Unsafe)
    );
    assert_eq!(e("eureka/Prim_8__klee.c"), Some(Verdict::Safe));
    assert_eq!(e("eureka/bf20_klee.c"), Some(Verdict::Safe));
    assert_eq!(e("eureka/complex_guard__klee.c"), Some(Verdict::Safe));
    assert_eq!(e("eureka/wrong_loop_klee.c"), Some(Verdict::Unsafe));
    assert_eq!(e("other.c"), None);
}

#[test]
fn every_eureka_benchmark_has_an_expectation() {
    let dir = require_benchmarks!("every_eureka_benchmark_has_an_expectation").join("eureka");
    let files = collect(&[dir]);
    assert!(!files.is_empty());
    for f in files {
        assert!(
            lpmc::tools::regress::expected_for_file(&f).is_some(),
            "{}",
            f.display()
        );
    }
}

#[test]
fn judgements() {
    use Verdict::*;
    assert_eq!(judge(Some(Safe), Some(Safe)), Judgement::Correct);
    assert_eq!(judge(Some(Unsafe), Some(Unsafe)), Judgement::Correct);
    assert_eq!(judge(Some(Safe), Some(Unsafe)), Judgement::Wrong);
    assert_eq!(judge(Some(Unsafe), Some(Safe)), Judgement::Wrong);
    assert_eq!(judge(Some(Safe), Some(Unknown)), Judgement::Undecided);
    assert_eq!(judge(Some(Unsafe), None), Judgement::Undecided);
    assert_eq!(judge(None, Some(Safe)), Judgement::Unexpected);
    assert_eq!(judge(None, None), Judgement::Undecided);
}

#[test]
fn exit_status_is_one_only_for_wrong_verdicts() {
    use Verdict::*;
    assert_eq!(exit_status(&[]), 0);
    assert_eq!(
        exit_status(&[
            row(Some(Safe), Some(Safe), Some(Unknown)),
            row(Some(Unsafe), None, Some(Unsafe)),
            row(None, Some(Unsafe), Some(Safe)),
        ]),
        0
    );
    assert_eq!(
        exit_status(&[
            row(Some(Safe), Some(Safe), Some(Safe)),
            row(Some(Safe), Some(Safe), Some(Unsafe)),
        ]),
        1
    );
    assert_eq!(
        exit_status(&[row(Some(Unsafe), Some(Safe), Some(Unknown))]),
        1
    );
}

#[test]
fn tables_mark_wrong_verdicts_in_every_format() {
    use Verdict::*;
    let rows = vec![
        row(Some(Safe), Some(Safe), Some(Unknown)),
        row(Some(Unsafe), Some(Unsafe), Some(Safe)),
    ];
    for f in [Format::Text, Format::Markdown, Format::Csv] {
        let t = render(&rows, f);
        assert_eq!(t.matches("WRONG)").count(), 1, "{f:?}:\n{t}");
        assert!(t.contains("program"), "{t}");
        assert!(t.contains("UNKNOWN"), "{t}");
    }
    let csv = render(&rows, Format::Csv);
    assert_eq!(csv.lines().count(), 3);
    assert!(csv.lines().all(|l| l.split(',').count() == 16), "{csv}");
    let md = render(&rows, Format::Markdown);
    assert!(md.starts_with("| program |"));
    let json: serde_json::Value = serde_json::from_str(&render(&rows, Format::Json)).unwrap();
    assert_eq!(json.as_array().map(|a| a.len()), Some(2));
    let text = render(&rows, Format::Text);
    assert!(text.contains("1 WRONG"), "{text}");
    // CPU time beside wall-clock time, per engine and in total.
    assert!(text.contains("lpmc cpu ms"), "{text}");
    assert!(text.contains("total time; lpmc: "), "{text}");
    assert!(
        text.contains("all: "),
        "the portfolio column is summed up: {text}"
    );
}

#[test]
fn parse_engine_reports() {
    let r = lpmc::tools::regress::parse_report(
        r#"{"verdict":"safe","reason":"r","refinements":2,"cells":{"a":[0,1],"b":[3]},"time_ms":5}"#,
        9,
        Some(2048),
    );
    assert_eq!(r.verdict, Some(Verdict::Safe));
    assert_eq!(r.refinements, Some(2));
    assert_eq!(r.cells, Some(3));
    assert_eq!(r.peak_kib, Some(2048));
    let r = lpmc::tools::regress::parse_report("garbage", 9, None);
    assert_eq!(r.verdict, None);
    assert_eq!(r.status, "ERROR");
}

#[test]
fn collect_skips_the_error_programs() {
    let files = collect(&[lp_dir()]);
    assert!(files.len() > 20);
    assert!(files
        .iter()
        .all(|f| !f.components().any(|c| c.as_os_str() == "errors")));
}

#[test]
fn end_to_end_on_small_programs() {
    let dir = lp_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_lpmc"))
        .args([
            "regress",
            "--timeout",
            "10",
            "--unwind",
            "12",
            "--format",
            "csv",
        ])
        .arg(dir.join("fig1.lp"))
        .arg(dir.join("wrong_loop.c"))
        .arg(dir.join("conditional_with_u_unsafe.lp"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].contains(",all,all ms,"), "{text}");
    assert!(lines[1].contains("fig1.lp,SAFE,SAFE"), "{text}");
    assert!(lines[2].contains("wrong_loop.c,UNSAFE,UNSAFE"), "{text}");
    // The portfolio decides each of them too.
    for l in &lines[1..] {
        let cells: Vec<&str> = l.split(',').collect();
        assert!(cells[12] == cells[1], "portfolio column: {l}");
    }
    assert!(!text.contains("WRONG"), "{text}");
}

#[test]
fn scale_family_sizes_csv_and_svg() {
    use lpmc::tools::scale::{csv, program, sizes, svg, Family, Point, FIG1};
    assert_eq!(sizes(1000), vec![3, 10, 100, 1000]);
    assert_eq!(sizes(999), vec![3, 10, 100]);
    assert_eq!(sizes(2), Vec::<u64>::new());
    assert_eq!(sizes(1_000_000).len(), 7);
    assert_eq!(program(Family::Fig1, 3), FIG1);
    let p = program(Family::Fig1, 1000);
    assert!(p.contains("a[1000]") && p.contains("i < 1000") && !p.contains("a[3]"));
    assert!(program(Family::Loop, 7).contains("while (i < 7)"));
    let pts: Vec<Point> = [
        (3, "lpmc", "SAFE", 10),
        (3, "bmc", "SAFE", 5),
        (1000, "lpmc", "SAFE", 12),
        (1000, "bmc", "TIMEOUT", 900),
    ]
    .iter()
    .map(|(n, e, v, ms)| Point {
        family: "fig1".into(),
        n: *n,
        engine: e.to_string(),
        verdict: v.to_string(),
        ms: *ms,
    })
    .collect();
    let c = csv(&pts);
    assert_eq!(c.lines().count(), 5);
    assert!(c.contains("fig1,1000,bmc,TIMEOUT,900"));
    let s = svg(&pts, "t <&>");
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    assert!(s.contains("t &lt;&amp;&gt;"));
    // Three decided runs are filled dots in their engine's colour; the timeout is a
    // hollow (white) one.
    let filled = |c: &str| {
        let fill = format!(r#"fill="{c}" stroke="none""#);
        s.lines()
            .filter(|l| l.starts_with("<circle") && l.contains(&fill))
            .count()
    };
    assert_eq!(filled("#1F77B4"), 2, "{s}");
    assert_eq!(filled("#D62728"), 1, "{s}");
    assert_eq!(filled("#FFFFFF"), 1, "{s}");
    assert!(
        s.contains("fig1 lpmc (CEGAR)") && s.contains("fig1 bmc"),
        "{s}"
    );
}

#[test]
fn scale_end_to_end_small() {
    let dir = std::env::temp_dir().join(format!("lpmc-scale-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lpmc"))
        .args([
            "scale",
            "--family",
            "fig1",
            "--max",
            "100",
            "--timeout",
            "20",
        ])
        .arg("--out")
        .arg(dir.join("s.svg"))
        .arg("--csv")
        .arg(dir.join("s.csv"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let csv = std::fs::read_to_string(dir.join("s.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3 * 2, "{csv}");
    assert!(csv.lines().skip(1).all(|l| l.contains(",SAFE,")), "{csv}");
    let svg = std::fs::read_to_string(dir.join("s.svg")).unwrap();
    assert!(
        svg.contains("fig1 lpmc (CEGAR)") && svg.contains("fig1 bmc"),
        "{svg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
