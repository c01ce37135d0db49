//! The flows of `lpmc regress` and `lpmc scale`: check the arguments, run the engines in
//! child processes of `exe` (the `lpmc` binary), and write the table, the plot and the
//! pages. Errors come back as messages for the user (exit 2).

use super::{regress, regress_page, scale};
use crate::Unwind;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `lpmc regress` was asked for.
pub struct RegressArgs<'a> {
    /// Programs, task files or folders.
    pub paths: &'a [PathBuf],
    /// Per-engine, per-program time limit (s).
    pub timeout_s: f64,
    /// The table's format.
    pub format: regress::Format,
    /// The bounded engine's bound.
    pub unwind: Unwind,
    /// Where to write the table as an HTML page.
    pub report: Option<&'a Path>,
    /// Where to write each program's HTML check report.
    pub report_dir: Option<&'a Path>,
    /// What a signed overflow does (`None`: lpmc's default).
    pub signed_overflow: Option<crate::SignedOverflow>,
    /// What an out-of-bounds array access does (`None`: lpmc's default).
    pub array_bounds: Option<crate::ArrayBounds>,
}

fn positive(timeout_s: f64) -> Result<(), String> {
    if timeout_s.is_finite() && timeout_s > 0.0 {
        Ok(())
    } else {
        Err("--timeout must be a positive number of seconds".into())
    }
}

/// `lpmc regress`: the table on `out`, a line per program on stderr as it is done; the
/// exit status (1 if a verdict is wrong).
pub fn regress(exe: &Path, args: &RegressArgs, out: &mut dyn Write) -> Result<i32, String> {
    positive(args.timeout_s)?;
    if let Some(p) = args.paths.iter().find(|p| !p.exists()) {
        return Err(format!("{} does not exist", p.display()));
    }
    let programs = regress::collect(args.paths);
    let unwind = match args.unwind {
        Unwind::Auto => "auto".to_string(),
        Unwind::Fixed(k) => k.to_string(),
    };
    if let Some(d) = args.report_dir {
        std::fs::create_dir_all(d)
            .map_err(|e| format!("cannot create the report folder {}: {e}", d.display()))?;
    }
    let opts = regress::RegressOptions {
        timeout_s: args.timeout_s,
        unwind,
        report_dir: args.report_dir.map(Path::to_path_buf),
        signed_overflow: args.signed_overflow,
        array_bounds: args.array_bounds,
    };
    let total = programs.len();
    let mut done = 0;
    let rows = regress::run_all(exe, &programs, &opts, &mut |r| {
        done += 1;
        eprintln!(
            "[{done}/{total}] {}: lpmc {} ({} ms), bmc {} ({} ms)",
            r.program, r.cegar.status, r.cegar.time_ms, r.bmc.status, r.bmc.time_ms
        );
    });
    let _ = write!(out, "{}", regress::render(&rows, args.format));
    if let Some(page) = args.report {
        let href = |i: usize, r: &regress::Row| {
            let d = args.report_dir?;
            let file = d.join(regress::report_name(i, &r.program));
            file.is_file().then(|| relative_href(page, &file))
        };
        let html = regress_page::render_html(&rows, &href);
        std::fs::write(page, html)
            .map_err(|e| format!("cannot write the report {}: {e}", page.display()))?;
    }
    Ok(regress::exit_status(&rows))
}

/// The link from the page `page` to `file`: relative when `file` is in `page`'s folder
/// or below it, else absolute.
pub fn relative_href(page: &Path, file: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let file = abs(file);
    let base = abs(page).parent().map(Path::to_path_buf);
    match base.as_deref().and_then(|b| file.strip_prefix(b).ok()) {
        Some(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        None => format!("file://{}", file.display()),
    }
}

/// What `lpmc scale` was asked for.
pub struct ScaleArgs<'a> {
    /// The families, as named on the command line.
    pub family: &'a str,
    /// The largest array size.
    pub max: u64,
    /// Per-engine, per-run time limit (s).
    pub timeout_s: f64,
    /// Where to write the SVG plot.
    pub svg: &'a Path,
    /// Where to write the CSV.
    pub csv: Option<&'a Path>,
}

/// `lpmc scale`: a line per run on `out`, then the plot (and the CSV).
pub fn scale(exe: &Path, args: &ScaleArgs, out: &mut dyn Write) -> Result<(), String> {
    let families = scale::parse_families(args.family)?;
    positive(args.timeout_s)?;
    let mut points = Vec::new();
    for f in &families {
        for n in scale::sizes(args.max) {
            let ps = scale::measure(exe, *f, n, args.timeout_s);
            for p in &ps {
                let _ = writeln!(
                    out,
                    "{:<5} N={:<8} {:<5} {:<8} {} ms",
                    p.family, p.n, p.engine, p.verdict, p.ms
                );
            }
            points.extend(ps);
        }
    }
    let names: Vec<&str> = families.iter().map(|f| f.name()).collect();
    let title = format!(
        "lpmc scale: {} family, time vs array size N",
        names.join(" + ")
    );
    std::fs::write(args.svg, scale::svg(&points, &title))
        .map_err(|e| format!("cannot write {}: {e}", args.svg.display()))?;
    if let Some(c) = args.csv {
        std::fs::write(c, scale::csv(&points))
            .map_err(|e| format!("cannot write {}: {e}", c.display()))?;
    }
    Ok(())
}
