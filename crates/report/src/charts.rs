//! The report's charts as inline SVG: plain bars, labels escaped, sized by `viewBox` so they
//! stay sharp at any zoom and pixel density.

use std::fmt::Write as _;

use crate::html::escape;

const WIDTH: f64 = 460.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 40.0;
const BOTTOM: f64 = 40.0;
const TOP: f64 = 16.0;

/// One chart: bars on a y axis from 0 to `max`, and maybe a marker line.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub id: &'static str,
    pub title: &'static str,
    pub bars: Vec<Bar>,
    pub max: f64,
    pub marker: Option<Marker>,
}

/// One bar: its label under the axis, its value, the text above it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq)]
/// A vertical line across the plot at `at` (0..1 of the x axis), with its label.
pub struct Marker {
    pub at: f64,
    pub label: String,
}

/// The chart as an SVG figure.
pub fn svg(chart: &Chart) -> String {
    let (id, title, bars, max, marker) = (
        chart.id,
        chart.title,
        &chart.bars,
        chart.max,
        chart.marker.as_ref(),
    );
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let max = if max > 0.0 { max } else { 1.0 };
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<figure class="chart" id="{id}"><figcaption>{}</figcaption><svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{}">"#,
        escape(title),
        escape(title)
    );
    for step in 0..=4 {
        let value = max * f64::from(step) / 4.0;
        let y = TOP + plot_h - plot_h * f64::from(step) / 4.0;
        let _ = write!(
            svg,
            r#"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" class="grid"/><text x="{}" y="{:.1}" class="tick" text-anchor="end">{}</text>"#,
            WIDTH - 8.0,
            LEFT - 4.0,
            y + 4.0,
            tick(value, max)
        );
    }
    let slot = plot_w / bars.len().max(1) as f64;
    for (i, bar) in bars.iter().enumerate() {
        let h = plot_h * (bar.value / max).clamp(0.0, 1.0);
        let x = LEFT + slot * i as f64 + slot * 0.15;
        let w = slot * 0.7;
        let y = TOP + plot_h - h;
        let _ = write!(
            svg,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" class="bar"><title>{}: {}</title></rect><text x="{:.1}" y="{:.1}" class="note" text-anchor="middle">{}</text><text x="{:.1}" y="{:.1}" class="label" text-anchor="middle">{}</text>"#,
            escape(&bar.label),
            escape(&bar.note),
            x + w / 2.0,
            y - 3.0,
            escape(&bar.note),
            x + w / 2.0,
            TOP + plot_h + 16.0,
            escape(&clip(&bar.label, 14))
        );
    }
    if let Some(marker) = marker {
        let x = LEFT + plot_w * marker.at.clamp(0.0, 1.0);
        let _ = write!(
            svg,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{TOP}" y2="{:.1}" class="marker"/><text x="{:.1}" y="{:.1}" class="marker-label">{}</text>"#,
            TOP + plot_h,
            x + 4.0,
            TOP + 10.0,
            escape(&marker.label)
        );
    }
    svg.push_str("</svg></figure>");
    svg
}

fn tick(value: f64, max: f64) -> String {
    if max <= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{}", value.round())
    }
}

fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(chars - 1).collect();
        short.push('…');
        short
    }
}
