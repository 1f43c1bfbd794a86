//! The report's charts, drawn by plotters' SVG backend: one drawing, written into the exported
//! page and shown by the app, so both show the same chart. The SVG has a `viewBox`, so it stays
//! sharp at any zoom and pixel density.
//!
//! Colors: plotters writes each color as a `fill` or `stroke` attribute, and `charts.css` (the
//! end of both the exported page's and the app's style sheet) recolors each [`Ink`] by that
//! attribute (`.chart [fill="#2456D8"]` takes `--accent`), so a chart follows a light or dark
//! page. The inks are the light theme's colors: a chart is right even
//! without the style sheet.
//!
//! Text: every label comes from records, and plotters-svg escapes `<`, `>`, `&`, `"` and `'` in
//! text and attributes (a test holds it to that). Nothing here measures text: plotters measures
//! it with a canvas in a browser and by estimate natively, so a layout that depended on it would
//! differ between the app and the export. The y labels sit left of the axis, the x labels under
//! it, the notes above the bars, anchored, and the browser places them.

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::html::escape;

/// The size of every chart's drawing, in the units of its SVG `viewBox`.
pub const VIEW_BOX: (u32, u32) = (460, 220);
const LEFT: u32 = 40;
const BOTTOM: u32 = 24;
const TOP: u32 = 16;
const RIGHT: u32 = 8;
const FONT: (&str, f64) = ("sans-serif", 11.0);

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

/// What each part of a chart is drawn in. `charts.css`, which ends both the exported page's
/// style sheet and the app's, gives each its theme color by the hex plotters writes
/// ([`Ink::hex`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ink {
    /// Bars: `--accent`.
    Bar,
    /// Grid lines: `--line`.
    Grid,
    /// Tick and bar labels: `--muted`.
    Label,
    /// The value above a bar: `--ink`.
    Note,
    /// The marker line and its label: `--fail`.
    Marker,
}

impl Ink {
    #[cfg(test)]
    const ALL: [Ink; 5] = [Ink::Bar, Ink::Grid, Ink::Label, Ink::Note, Ink::Marker];

    fn color(self) -> RGBColor {
        match self {
            Ink::Bar => RGBColor(0x24, 0x56, 0xd8),
            Ink::Grid => RGBColor(0xdc, 0xdd, 0xe0),
            Ink::Label => RGBColor(0x6b, 0x70, 0x78),
            Ink::Note => RGBColor(0x1d, 0x1f, 0x23),
            Ink::Marker => RGBColor(0xb4, 0x23, 0x18),
        }
    }

    /// The color as plotters' SVG backend writes it (`#2456D8`): what `charts.css` selects.
    #[cfg(test)]
    fn hex(self) -> String {
        let RGBColor(r, g, b) = self.color();
        format!("#{r:02X}{g:02X}{b:02X}")
    }
}

/// The chart as an SVG figure: its title as the caption, the drawing from plotters.
pub fn svg(chart: &Chart) -> String {
    let title = escape(chart.title);
    let mut drawing = String::new();
    // Drawing into a string fails only on a coordinate plotters cannot map, which `draw` never
    // makes; a chart that failed anyway is shown empty rather than stopping the report.
    if draw(
        chart,
        SVGBackend::with_string(&mut drawing, VIEW_BOX).into_drawing_area(),
    )
    .is_err()
    {
        drawing.clear();
    }
    format!(
        r#"<figure class="chart" id="{}"><figcaption>{title}</figcaption>{drawing}</figure>"#,
        chart.id
    )
}

type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw(chart: &Chart, root: DrawingArea<SVGBackend<'_>, Shift>) -> Drawn {
    let bars = chart.bars.len().max(1) as i32;
    let max = if chart.max > 0.0 && chart.max.is_finite() {
        chart.max
    } else {
        1.0
    };
    let text = |ink: Ink, h: HPos, v: VPos| {
        let mut style = TextStyle::from(FONT.into_font()).pos(Pos::new(h, v));
        style.color = ink.color().to_backend_color();
        style
    };
    let mut plot = ChartBuilder::on(&root)
        .margin_top(TOP)
        .margin_right(RIGHT)
        .x_label_area_size(BOTTOM)
        .y_label_area_size(LEFT)
        .build_cartesian_2d((0..bars - 1).into_segmented(), 0.0..max)?;
    let label = |value: &SegmentValue<i32>| match value {
        SegmentValue::CenterOf(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| chart.bars.get(i))
            .map_or(String::new(), |bar| clip(&bar.label, 14)),
        _ => String::new(),
    };
    plot.configure_mesh()
        .disable_x_mesh()
        .axis_style(TRANSPARENT)
        // Invisible ticks (the axis style is transparent) that keep the labels off the plot.
        .set_all_tick_mark_size(2)
        .y_labels(6)
        .bold_line_style(Ink::Grid.color())
        .light_line_style(TRANSPARENT)
        .x_labels(chart.bars.len() + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|value| tick(*value, max))
        .x_label_style(text(Ink::Label, HPos::Center, VPos::Top))
        .y_label_style(text(Ink::Label, HPos::Right, VPos::Center))
        .draw()?;
    plot.draw_series(chart.bars.iter().zip(0..).map(|(bar, i)| {
        let value = bar.value.clamp(0.0, max);
        let mut rect = Rectangle::new(
            [
                (SegmentValue::Exact(i), 0.0),
                (SegmentValue::Exact(i + 1), value),
            ],
            Ink::Bar.color().filled(),
        );
        let margin = slot_margin(bars);
        rect.set_margin(0, 0, margin, margin);
        rect
    }))?;
    plot.draw_series(chart.bars.iter().zip(0..).map(|(bar, i)| {
        let value = bar.value.clamp(0.0, max);
        EmptyElement::at((SegmentValue::CenterOf(i), value))
            + Text::new(
                bar.note.clone(),
                (0, -3),
                text(Ink::Note, HPos::Center, VPos::Bottom),
            )
    }))?;
    if let Some(marker) = &chart.marker {
        let (xs, ys) = plot.plotting_area().get_pixel_range();
        let x = xs.start + ((xs.end - xs.start) as f64 * marker.at.clamp(0.0, 1.0)).round() as i32;
        root.draw(&PathElement::new(
            vec![(x, ys.start), (x, ys.end)],
            Ink::Marker.color().stroke_width(2),
        ))?;
        root.draw(&Text::new(
            marker.label.clone(),
            (x + 4, ys.start + 2),
            text(Ink::Marker, HPos::Left, VPos::Top),
        ))?;
    }
    root.present()
}

/// The gap on each side of a bar, 15% of its slot, in the drawing's units.
fn slot_margin(bars: i32) -> u32 {
    let plot_width = VIEW_BOX.0 - LEFT - RIGHT;
    (f64::from(plot_width) / f64::from(bars) * 0.15).round() as u32
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(label: &str, value: f64, note: &str) -> Bar {
        Bar {
            label: label.into(),
            value,
            note: note.into(),
        }
    }

    fn chart(bars: Vec<Bar>, max: f64, marker: Option<ChartMarker>) -> Chart {
        Chart {
            id: "chart-test",
            title: "Pass rate by <agent>",
            bars,
            max,
            marker,
        }
    }

    /// Every value of `attribute="..."` in the SVG.
    fn values<'a>(svg: &'a str, attribute: &str) -> Vec<&'a str> {
        let start = format!(" {attribute}=\"");
        svg.split(start.as_str())
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap_or(0)])
            .collect()
    }

    #[test]
    fn record_text_stays_text() {
        let hostile = r#"<img src=x onerror="alert(1)">'&"#;
        let svg = svg(&chart(
            vec![bar(hostile, 1.0, hostile)],
            1.0,
            Some(ChartMarker {
                at: 0.5,
                label: hostile.into(),
            }),
        ));
        assert!(!svg.contains("<img"), "{svg}");
        assert!(!svg.contains("onerror=\""), "{svg}");
        // The label is clipped to 14 characters; the note and the marker's label are whole.
        assert!(svg.contains("&lt;img src=x on…"), "{svg}");
        assert_eq!(
            svg.matches("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&apos;&amp;")
                .count(),
            2,
            "{svg}"
        );
        assert!(svg.contains("<figcaption>Pass rate by &lt;agent&gt;</figcaption>"));
    }

    #[test]
    fn every_color_drawn_is_an_ink_the_charts_sheet_recolors() {
        let svg = svg(&chart(
            vec![bar("easy", 0.5, "1/2"), bar("hard", 1.0, "3/3")],
            1.0,
            Some(ChartMarker {
                at: 0.5,
                label: "pass ≥ 0.5".into(),
            }),
        ));
        let inks: Vec<String> = Ink::ALL.iter().map(|ink| ink.hex()).collect();
        for attribute in ["fill", "stroke"] {
            for value in values(&svg, attribute) {
                assert!(
                    value == "none" || inks.iter().any(|ink| ink == value),
                    "{attribute}={value} is no ink, so no theme recolors it"
                );
            }
        }
        let sheet = include_str!("charts.css");
        for ink in &inks {
            assert!(
                sheet.contains(&format!(r#"[fill="{ink}"]"#))
                    || sheet.contains(&format!(r#"[stroke="{ink}"]"#)),
                "charts.css recolors {ink}"
            );
        }
        // The exported page carries it (the app loads it too: www/index.html links it).
        assert!(crate::STYLE.ends_with(sheet));
    }

    #[test]
    fn bars_stand_in_order_at_their_height() {
        let svg = svg(&chart(
            vec![bar("a", 2.0, "2"), bar("b", 4.0, "4"), bar("c", 9.0, "9")],
            4.0,
            None,
        ));
        let rect = |name: &str| -> Vec<i32> {
            values(&svg, name)
                .iter()
                .skip(1) // the <svg>'s own width and height
                .map(|v| v.parse().expect("a number"))
                .collect()
        };
        let heights = rect("height");
        assert_eq!(heights.len(), 3, "{svg}");
        // Half the maximum, half the height (to the pixel plotters rounds to).
        assert!((heights[0] * 2 - heights[1]).abs() <= 1, "{heights:?}");
        assert_eq!(
            heights[1], heights[2],
            "over the maximum stands at the maximum"
        );
        let lefts: Vec<i32> = svg
            .split("<rect x=\"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap_or(0)].parse().expect("x"))
            .collect();
        assert!(lefts.windows(2).all(|w| w[0] < w[1]), "{lefts:?}");
        // The y axis counts: ticks are whole numbers.
        assert!(svg.contains("\n4\n</text>"), "{svg}");
    }

    #[test]
    fn no_bars_a_zero_or_odd_maximum_draw_without_failing() {
        for (bars, max) in [
            (vec![], 0.0),
            (vec![bar("x", f64::NAN, "?")], f64::NAN),
            (vec![bar("x", -1.0, "-1")], f64::INFINITY),
            (vec![bar("x", 1e300, "big")], 1e300),
        ] {
            let svg = svg(&chart(bars, max, None));
            assert!(svg.contains("</svg>"), "{svg}");
        }
    }
}
