//! Small inline SVG bar charts: the timeline of a check (stacked bars of the phases per
//! iteration) and plain time bars (the regress page).

use super::escape;
use std::fmt::Write;

/// One bar of a stacked chart: its label and its segments (value, CSS class).
pub struct Bar {
    /// The label left of the bar.
    pub label: String,
    /// The segments, left to right: value and CSS class.
    pub segments: Vec<(f64, &'static str)>,
    /// The text right of the bar.
    pub note: String,
}

const ROW_H: f64 = 18.0;
const LABEL_W: f64 = 110.0;
const BAR_W: f64 = 420.0;
const NOTE_W: f64 = 200.0;

/// Horizontal stacked bars, scaled to the longest; `legend` names the classes.
pub fn stacked(bars: &[Bar], legend: &[(&'static str, &str)], title: &str) -> String {
    let max = bars
        .iter()
        .map(|b| b.segments.iter().map(|s| s.0.max(0.0)).sum::<f64>())
        .fold(0.0f64, f64::max);
    let scale = if max > 0.0 { BAR_W / max } else { 0.0 };
    let legend_h = if legend.is_empty() { 0.0 } else { ROW_H + 4.0 };
    let height = legend_h + bars.len() as f64 * (ROW_H + 4.0) + 4.0;
    let width = LABEL_W + BAR_W + NOTE_W;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}"><title>{}</title>"#,
        escape(title)
    );
    let mut x = LABEL_W;
    for (class, name) in legend {
        let _ = write!(
            s,
            r#"<rect class="{class}" x="{x:.1}" y="3" width="12" height="12"/><text x="{:.1}" y="13">{}</text>"#,
            x + 16.0,
            escape(name)
        );
        x += 16.0 + name.chars().count() as f64 * 6.5 + 14.0;
    }
    for (i, b) in bars.iter().enumerate() {
        let y = legend_h + i as f64 * (ROW_H + 4.0);
        let _ = write!(
            s,
            r#"<text class="bar-label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LABEL_W - 6.0,
            y + 13.0,
            escape(&b.label)
        );
        let mut x = LABEL_W;
        for (v, class) in &b.segments {
            let w = v.max(0.0) * scale;
            if w > 0.0 {
                let _ = write!(
                    s,
                    r#"<rect class="{class}" x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{ROW_H:.1}"><title>{}</title></rect>"#,
                    escape(&format!("{class}: {v:.2}"))
                );
            }
            x += w;
        }
        let _ = write!(
            s,
            r#"<text class="bar-note" x="{:.1}" y="{:.1}">{}</text>"#,
            x + 6.0,
            y + 13.0,
            escape(&b.note)
        );
    }
    s.push_str("</svg>");
    s
}

/// One plain bar of width `value / max` of `width` px (an inline SVG for a table cell).
pub fn bar(value: f64, max: f64, width: f64, class: &str) -> String {
    let w = if max > 0.0 {
        (value.max(0.0) / max * width).min(width)
    } else {
        0.0
    };
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="tbar" width="{width:.0}" height="10" viewBox="0 0 {width:.0} 10"><rect class="{}" x="0" y="1" width="{w:.2}" height="8"/></svg>"#,
        escape(class)
    )
}
