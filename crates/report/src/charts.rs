//! The report's charts as SVG: plain bars, sized by `viewBox` so they stay sharp at any zoom and
//! pixel density, colored by the style sheet (so they follow a light or dark page). Laid out
//! once ([`marks`]) for the exported page and the app alike.

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
    pub marker: Option<ChartMarker>,
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
pub struct ChartMarker {
    pub at: f64,
    pub label: String,
}

/// The size of every chart's SVG `viewBox`.
pub const VIEW_BOX: (f64, f64) = (WIDTH, HEIGHT);

/// One mark of a chart, placed in the `viewBox`, with the class the style sheets color it by.
/// The chart is laid out once, here: the export writes the marks as SVG text ([`svg`]) and the
/// page builds the same marks as SVG elements, so both show the same chart.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        class: &'static str,
    },
    /// A bar, with the text a pointer over it shows.
    Rect {
        x: f64,
        y: f64,
        width: f64,
        height: f64,
        class: &'static str,
        title: String,
    },
    /// Text, anchored at its start unless `anchor` says `middle` or `end`.
    Text {
        x: f64,
        y: f64,
        class: &'static str,
        anchor: Option<&'static str>,
        text: String,
    },
}

/// The chart's marks: grid lines and ticks, then each bar with its note and label, then the
/// marker.
pub fn marks(chart: &Chart) -> Vec<Mark> {
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let max = if chart.max > 0.0 { chart.max } else { 1.0 };
    let mut marks = Vec::new();
    for step in 0..=4 {
        let value = max * f64::from(step) / 4.0;
        let y = TOP + plot_h - plot_h * f64::from(step) / 4.0;
        marks.push(Mark::Line {
            x1: LEFT,
            y1: y,
            x2: WIDTH - 8.0,
            y2: y,
            class: "grid",
        });
        marks.push(Mark::Text {
            x: LEFT - 4.0,
            y: y + 4.0,
            class: "tick",
            anchor: Some("end"),
            text: tick(value, max),
        });
    }
    let slot = plot_w / chart.bars.len().max(1) as f64;
    for (i, bar) in chart.bars.iter().enumerate() {
        let height = plot_h * (bar.value / max).clamp(0.0, 1.0);
        let x = LEFT + slot * i as f64 + slot * 0.15;
        let width = slot * 0.7;
        let y = TOP + plot_h - height;
        marks.push(Mark::Rect {
            x,
            y,
            width,
            height,
            class: "bar",
            title: format!("{}: {}", bar.label, bar.note),
        });
        marks.push(Mark::Text {
            x: x + width / 2.0,
            y: y - 3.0,
            class: "note",
            anchor: Some("middle"),
            text: bar.note.clone(),
        });
        marks.push(Mark::Text {
            x: x + width / 2.0,
            y: TOP + plot_h + 16.0,
            class: "label",
            anchor: Some("middle"),
            text: clip(&bar.label, 14),
        });
    }
    if let Some(marker) = &chart.marker {
        let x = LEFT + plot_w * marker.at.clamp(0.0, 1.0);
        marks.push(Mark::Line {
            x1: x,
            y1: TOP,
            x2: x,
            y2: TOP + plot_h,
            class: "marker",
        });
        marks.push(Mark::Text {
            x: x + 4.0,
            y: TOP + 10.0,
            class: "marker-label",
            anchor: None,
            text: marker.label.clone(),
        });
    }
    marks
}

/// The chart as an SVG figure, every text escaped.
pub fn svg(chart: &Chart) -> String {
    let title = escape(chart.title);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<figure class="chart" id="{}"><figcaption>{title}</figcaption><svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}">"#,
        chart.id
    );
    for mark in marks(chart) {
        let _ = match mark {
            Mark::Line {
                x1,
                y1,
                x2,
                y2,
                class,
            } => write!(
                svg,
                r#"<line x1="{x1:.1}" x2="{x2:.1}" y1="{y1:.1}" y2="{y2:.1}" class="{class}"/>"#
            ),
            Mark::Rect {
                x,
                y,
                width,
                height,
                class,
                title,
            } => write!(
                svg,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{width:.1}" height="{height:.1}" class="{class}"><title>{}</title></rect>"#,
                escape(&title)
            ),
            Mark::Text {
                x,
                y,
                class,
                anchor,
                text,
            } => {
                let anchor = anchor.map_or(String::new(), |a| format!(r#" text-anchor="{a}""#));
                write!(
                    svg,
                    r#"<text x="{x:.1}" y="{y:.1}" class="{class}"{anchor}>{}</text>"#,
                    escape(&text)
                )
            }
        };
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
