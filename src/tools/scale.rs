//! `lpmc scale`: how the two engines scale with the array size N on a program family:
//! `fig1` is the paper's Fig. 1 program (`lp-programs/fig1.lp`) with `a[3]` → `a[N]` and
//! `i < 3` → `i < N`; `loop` is a loop writing all N cells and checking the counter (the
//! bounded engine must unwind it N times). Each engine runs in a child process with a
//! time limit; the results go to a CSV file and an SVG plot drawn with `plotters`.

use super::regress::{self, Engine, EngineResult};
use std::fmt::Write as _;
use std::path::Path;

/// The text of `lp-programs/fig1.lp`.
pub const FIG1: &str = include_str!("../../lp-programs/fig1.lp");

/// The program families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The paper's Fig. 1 with N cells.
    Fig1,
    /// A loop writing N cells, then checking its counter.
    Loop,
}

impl Family {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Fig1 => "fig1",
            Family::Loop => "loop",
        }
    }
}

/// Parse `fig1`, `loop` or `all`.
pub fn parse_families(s: &str) -> Result<Vec<Family>, String> {
    match s {
        "fig1" => Ok(vec![Family::Fig1]),
        "loop" => Ok(vec![Family::Loop]),
        "all" => Ok(vec![Family::Fig1, Family::Loop]),
        _ => Err(format!("unknown family `{s}` (fig1, loop, all)")),
    }
}

/// The member of size `n` of a family.
pub fn program(family: Family, n: u64) -> String {
    match family {
        Family::Fig1 => FIG1
            .replace("a[3]", &format!("a[{n}]"))
            .replace("i < 3", &format!("i < {n}")),
        Family::Loop => format!(
            "// expect: safe\nvoid main() {{\n  int i, a[{n}];\n  i = 0;\n  while (i < {n}) {{\n    a[i] = 2 * i;\n    i = i + 1;\n  }}\n  if (i != {n})\n    ERROR: ;\n}}\n"
        ),
    }
}

/// The sizes: 3, 10, 100, 1000, ... up to `max`.
pub fn sizes(max: u64) -> Vec<u64> {
    let mut v = Vec::new();
    if max >= 3 {
        v.push(3);
    }
    let mut n: u64 = 10;
    while n <= max {
        v.push(n);
        match n.checked_mul(10) {
            Some(m) => n = m,
            None => break,
        }
    }
    v
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    /// The family.
    pub family: String,
    /// The array size.
    pub n: u64,
    /// `lpmc` (CEGAR) or `bmc`.
    pub engine: String,
    /// SAFE, UNSAFE, UNKNOWN, TIMEOUT, ...
    pub verdict: String,
    /// Time in ms.
    pub ms: u128,
}

/// Run both engines on one member (in child processes of `exe`).
pub fn measure(exe: &Path, family: Family, n: u64, timeout_s: f64) -> Vec<Point> {
    let dir = std::env::temp_dir();
    let file = dir.join(format!(
        "lpmc-scale-{}-{}-{n}.lp",
        std::process::id(),
        family.name()
    ));
    let mut out = Vec::new();
    let results: Vec<(&str, EngineResult)> = match std::fs::write(&file, program(family, n)) {
        Ok(()) => {
            let opts = regress::RegressOptions {
                timeout_s,
                unwind: n.saturating_add(1).min(u64::from(u32::MAX)).to_string(),
                report_dir: None,
                signed_overflow: None,
                array_bounds: None,
            };
            let c = regress::run_engine(exe, Engine::Cegar, &file, &opts);
            let b = regress::run_engine(exe, Engine::Bmc, &file, &opts);
            vec![("lpmc", c), ("bmc", b)]
        }
        Err(e) => {
            let r = EngineResult {
                reason: format!("cannot write {}: {e}", file.display()),
                ..EngineResult::status_only("ERROR", None, 0)
            };
            vec![("lpmc", r.clone()), ("bmc", r)]
        }
    };
    let _ = std::fs::remove_file(&file);
    for (engine, r) in results {
        out.push(Point {
            family: family.name().to_string(),
            n,
            engine: engine.to_string(),
            verdict: r.status,
            ms: r.time_ms,
        });
    }
    out
}

/// The CSV: `family,N,engine,verdict,ms`.
pub fn csv(points: &[Point]) -> String {
    let mut s = String::from("family,N,engine,verdict,ms\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            p.family, p.n, p.engine, p.verdict, p.ms
        );
    }
    s
}

fn decided(p: &Point) -> bool {
    p.verdict == "SAFE" || p.verdict == "UNSAFE"
}

/// The plot, as SVG (drawn with `plotters`): time in ms against N, both on log scales,
/// one line per family and engine (blue: the CEGAR engine, red: bmc; solid: `fig1`,
/// dashed: `loop`); decided runs are filled dots, undecided ones (timeouts, UNKNOWN)
/// hollow.
pub fn svg(points: &[Point], title: &str) -> String {
    let mut out = String::new();
    if let Err(e) = draw(points, title, &mut out) {
        // Drawing into a string only fails on a plotters bug: say so in the picture.
        out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"60\"><text x=\"10\" y=\"30\">cannot draw the plot: {}</text></svg>\n",
            e.to_string().replace('&', "&amp;").replace('<', "&lt;")
        );
    }
    out
}

fn draw(points: &[Point], title: &str, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let max_n = points.iter().map(|p| p.n).max().unwrap_or(10).max(10) as f64;
    let max_ms = points.iter().map(|p| p.ms).max().unwrap_or(1).max(10) as f64;
    let root = SVGBackend::with_string(out, (760, 460)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (1f64..max_n * 2.0).log_scale(),
            (1f64..max_ms * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("array size N (log scale)")
        .y_desc("time (ms, log scale)")
        .draw()?;
    let mut series: Vec<(String, String)> = Vec::new();
    for p in points {
        let k = (p.family.clone(), p.engine.clone());
        if !series.contains(&k) {
            series.push(k);
        }
    }
    for (fam, eng) in &series {
        let color = if eng == "lpmc" {
            RGBColor(0x1f, 0x77, 0xb4)
        } else {
            RGBColor(0xd6, 0x27, 0x28)
        };
        let mut ps: Vec<&Point> = points
            .iter()
            .filter(|p| &p.family == fam && &p.engine == eng)
            .collect();
        ps.sort_by_key(|p| p.n);
        let xy: Vec<(f64, f64)> = ps
            .iter()
            .map(|p| (p.n.max(1) as f64, (p.ms as f64).max(1.0)))
            .collect();
        let style = color.stroke_width(2);
        let label = format!(
            "{fam} {}",
            if eng == "lpmc" { "lpmc (CEGAR)" } else { "bmc" }
        );
        let drawn = if fam == "fig1" {
            chart.draw_series(LineSeries::new(xy.clone(), style))?
        } else {
            chart.draw_series(DashedLineSeries::new(xy.clone(), 6, 4, style))?
        };
        drawn
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart.draw_series(ps.iter().zip(&xy).map(|(p, c)| {
            let marker = if decided(p) {
                color.filled()
            } else {
                WHITE.filled()
            };
            EmptyElement::at(*c)
                + Circle::new((0, 0), 4, marker)
                + Circle::new((0, 0), 4, color.stroke_width(2))
        }))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
