//! The report's charts on canvas, drawn with plotters at the screen's pixel density so they stay
//! sharp on high-DPI displays. Labels are drawn as pixels: record text never becomes markup.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use qeval_report::Chart;
use web_sys::HtmlCanvasElement;

use crate::theme::Dark;

/// CSS height of a chart; the width follows the layout.
pub const HEIGHT: f64 = 220.0;

/// A chart's colors, the stylesheet's for the light or the dark page.
pub struct Palette {
    background: RGBColor,
    ink: RGBColor,
    grid: RGBColor,
    muted: RGBColor,
    bar: RGBColor,
    marker: RGBColor,
}

impl Palette {
    pub fn for_theme(dark: Dark) -> Palette {
        if dark.0 {
            Palette {
                background: RGBColor(31, 34, 39),
                ink: RGBColor(230, 231, 234),
                grid: RGBColor(58, 62, 69),
                muted: RGBColor(160, 165, 173),
                bar: RGBColor(122, 162, 255),
                marker: RGBColor(255, 123, 110),
            }
        } else {
            Palette {
                background: WHITE,
                ink: RGBColor(29, 31, 35),
                grid: RGBColor(220, 221, 224),
                muted: RGBColor(107, 112, 120),
                bar: RGBColor(36, 86, 216),
                marker: RGBColor(180, 35, 24),
            }
        }
    }
}

/// Draws `chart` on `canvas`, sized to its box times the device pixel ratio.
pub fn draw(canvas: &HtmlCanvasElement, chart: &Chart, palette: &Palette) -> Result<(), String> {
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let css_width = f64::from(canvas.client_width()).max(240.0);
    canvas.set_width((css_width * ratio) as u32);
    canvas.set_height((HEIGHT * ratio) as u32);
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("no 2D canvas")?;
    let root = backend.into_drawing_area();
    let error = |e: DrawingAreaErrorKind<_>| e.to_string();
    root.fill(&palette.background).map_err(error)?;
    let px = |n: f64| (n * ratio) as i32;
    let font = |size: f64| ("sans-serif", size * ratio).into_font();
    let n = chart.bars.len().max(1);
    let max = if chart.max > 0.0 {
        chart.max * 1.12
    } else {
        1.0
    };
    let mut plot = ChartBuilder::on(&root)
        .caption(
            chart.title,
            font(14.0).style(FontStyle::Bold).color(&palette.ink),
        )
        .margin(px(8.0))
        .x_label_area_size(px(22.0))
        .y_label_area_size(px(38.0))
        .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..max)
        .map_err(error)?;
    let labels: Vec<String> = chart.bars.iter().map(|b| b.label.clone()).collect();
    let unit = chart.max <= 1.0;
    plot.configure_mesh()
        .disable_x_mesh()
        .light_line_style(palette.background)
        .bold_line_style(palette.grid)
        .axis_style(palette.muted)
        .label_style(font(11.0).color(&palette.muted))
        .x_labels(n)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_labels(5)
        .y_label_formatter(&|y| {
            if unit {
                format!("{y:.2}")
            } else {
                format!("{}", y.round())
            }
        })
        .draw()
        .map_err(error)?;
    plot.draw_series(chart.bars.iter().enumerate().map(|(i, bar)| {
        let mut rect = Rectangle::new(
            [
                (SegmentValue::Exact(i), 0.0),
                (SegmentValue::Exact(i + 1), bar.value),
            ],
            palette.bar.filled(),
        );
        rect.set_margin(0, 0, px(6.0) as u32, px(6.0) as u32);
        rect
    }))
    .map_err(error)?;
    plot.draw_series(chart.bars.iter().enumerate().map(|(i, bar)| {
        Text::new(
            bar.note.clone(),
            (SegmentValue::CenterOf(i), bar.value + max * 0.02),
            font(11.0)
                .color(&palette.ink)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        )
    }))
    .map_err(error)?;
    if let Some(marker) = &chart.marker {
        let at = (marker.at * n as f64).round() as usize;
        let red = palette.marker;
        plot.draw_series(std::iter::once(PathElement::new(
            vec![
                (SegmentValue::Exact(at), 0.0),
                (SegmentValue::Exact(at), max),
            ],
            red.stroke_width(px(1.5) as u32),
        )))
        .map_err(error)?;
        plot.draw_series(std::iter::once(Text::new(
            marker.label.clone(),
            (SegmentValue::Exact(at), max * 0.97),
            font(11.0).color(&red),
        )))
        .map_err(error)?;
    }
    root.present().map_err(error)?;
    Ok(())
}
