//! `lpmc scale`: how the two engines scale with the array size N on a program family:
//! `fig1` is the paper's Fig. 1 program (`lp-programs/fig1.lp`) with `a[3]` → `a[N]` and
//! `i < 3` → `i < N`; `loop` is a loop writing all N cells and checking the counter (the
//! bounded engine must unwind it N times). Each engine runs in a child process with a
//! time limit; the results go to a CSV file and a hand-written SVG plot (time vs N, log x).

use crate::regress::{self, Engine, EngineResult};
use std::fmt::Write as _;
use std::path::Path;

/// The text of `lp-programs/fig1.lp`.
pub const FIG1: &str = include_str!("../lp-programs/fig1.lp");

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
            let unwind = n.saturating_add(1).min(u64::from(u32::MAX)).to_string();
            let c = regress::run_engine(exe, Engine::Cegar, &file, timeout_s, &unwind);
            let b = regress::run_engine(exe, Engine::Bmc, &file, timeout_s, &unwind);
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

/// A hand-written SVG plot: time (ms; log scale when the times span more than two
/// decades, else linear) against N (log scale), one polyline per
/// family and engine; undecided runs (timeouts, UNKNOWN) as hollow markers.
pub fn svg(points: &[Point], title: &str) -> String {
    let (w, h) = (760.0_f64, 460.0_f64);
    let (l, r, t, b) = (80.0, 200.0, 50.0, 60.0);
    let pw = w - l - r;
    let ph = h - t - b;
    let max_n = points.iter().map(|p| p.n).max().unwrap_or(10).max(10) as f64;
    let xdec = max_n.log10().ceil().max(1.0);
    let max_ms = points.iter().map(|p| p.ms).max().unwrap_or(1).max(1) as f64;
    let min_ms = points.iter().map(|p| p.ms).min().unwrap_or(1).max(1) as f64;
    // A log time axis when the times span more than two decades, else linear.
    let log_y = max_ms / min_ms > 100.0;
    let step = nice_step(max_ms / 5.0);
    let ymax = (max_ms / step).ceil().max(1.0) * step;
    let ydec = max_ms.log10().ceil().max(1.0);
    let x = |n: u64| l + (n.max(1) as f64).log10() / xdec * pw;
    let yf = |ms: f64| {
        if log_y {
            t + ph - (ms.max(1.0).log10() / ydec) * ph
        } else {
            t + ph - (ms / ymax) * ph
        }
    };
    let y = |ms: u128| yf(ms as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>"#,
        l + pw / 2.0,
        escape(title)
    );
    // Axes and grid.
    for d in 0..=(xdec as u32) {
        let xx = l + f64::from(d) / xdec * pw;
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{t}" x2="{xx:.1}" y2="{:.1}" stroke="#ddd"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle">10^{d}</text>"##,
            t + ph,
            t + ph + 18.0
        );
    }
    let ticks: Vec<f64> = if log_y {
        (0..=(ydec as u32)).map(|d| 10f64.powi(d as i32)).collect()
    } else {
        let mut v = 0.0;
        let mut ts = Vec::new();
        while v <= ymax + step / 2.0 {
            ts.push(v);
            v += step;
        }
        ts
    };
    for v in ticks {
        let yy = yf(v);
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            l + pw,
            l - 6.0,
            yy + 4.0,
            v as u64
        );
    }
    let _ = writeln!(
        s,
        r##"<rect x="{l}" y="{t}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">array size N (log scale)</text>"#,
        l + pw / 2.0,
        h - 15.0
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">time (ms{})</text>"#,
        t + ph / 2.0,
        t + ph / 2.0,
        if log_y { ", log scale" } else { "" }
    );
    // Series.
    let mut series: Vec<(String, String)> = Vec::new();
    for p in points {
        let k = (p.family.clone(), p.engine.clone());
        if !series.contains(&k) {
            series.push(k);
        }
    }
    for (i, (fam, eng)) in series.iter().enumerate() {
        let color = if eng == "lpmc" { "#1f77b4" } else { "#d62728" };
        let dash = if fam == "fig1" {
            ""
        } else {
            r#" stroke-dasharray="6 4""#
        };
        let mut ps: Vec<&Point> = points
            .iter()
            .filter(|p| &p.family == fam && &p.engine == eng)
            .collect();
        ps.sort_by_key(|p| p.n);
        let coords: Vec<String> = ps
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.n), y(p.ms)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"{dash}/>"#,
            coords.join(" ")
        );
        for p in &ps {
            let fill = if decided(p) { color } else { "white" };
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{color}" stroke-width="2"><title>{} {} N={}: {} in {} ms</title></circle>"#,
                x(p.n),
                y(p.ms),
                escape(fam),
                escape(eng),
                p.n,
                escape(&p.verdict),
                p.ms
            );
        }
        // Legend.
        let ly = t + 10.0 + 22.0 * i as f64;
        let lx = l + pw + 15.0;
        let label = if eng == "lpmc" {
            "lpmc (CEGAR)"
        } else {
            "bmc (unwind N+1)"
        };
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}">{} {}</text>"#,
            lx + 25.0,
            lx + 30.0,
            ly + 4.0,
            escape(fam),
            label
        );
    }
    let ly = t + 10.0 + 22.0 * series.len() as f64;
    let _ = writeln!(
        s,
        r##"<circle cx="{:.1}" cy="{ly}" r="4" fill="white" stroke="#555" stroke-width="2"/><text x="{:.1}" y="{:.1}">timeout / UNKNOWN</text>"##,
        l + pw + 27.0,
        l + pw + 45.0,
        ly + 4.0
    );
    s.push_str("</svg>\n");
    s
}

fn nice_step(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    let m = x / p;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    (f * p).max(1.0)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
