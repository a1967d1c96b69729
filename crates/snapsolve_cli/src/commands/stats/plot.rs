//! Bar charts of distributions, as PNG or SVG, drawn with plotters and an
//! embedded DejaVu font (no system fonts needed).

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use crate::error::{CliError, CliResult};

/// One named series of bar heights, one per category, with optional error bars.
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Bar heights, one per category.
    pub values: Vec<f64>,
    /// Optional `(low, high)` interval per category, drawn as an error bar.
    pub intervals: Option<Vec<(f64, f64)>>,
}

/// A grouped bar chart.
pub struct BarChart {
    /// Title above the chart.
    pub title: String,
    /// Text under the x axis.
    pub x_label: String,
    /// Text beside the y axis.
    pub y_label: String,
    /// Category names along the x axis.
    pub categories: Vec<String>,
    /// One or more series drawn side by side.
    pub series: Vec<Series>,
    /// Plot `log10` of the values and label the axis in powers of ten.
    pub log_y: bool,
}

const WIDTH: u32 = 900;
const HEIGHT: u32 = 520;
const COLORS: [RGBColor; 3] = [
    RGBColor(49, 104, 165),
    RGBColor(219, 116, 38),
    RGBColor(72, 150, 72),
];

/// Draws the chart to `path`, PNG or SVG by extension.
pub fn draw_bar_chart(path: &Path, chart: &BarChart) -> CliResult {
    register_embedded_font();
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let result = match extension.as_deref() {
        Some("png") => draw(
            BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area(),
            chart,
        ),
        Some("svg") => draw(
            SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area(),
            chart,
        ),
        _ => {
            return Err(CliError::usage(format!(
                "cannot plot to {}: the file name must end in .png or .svg",
                path.display()
            )));
        }
    };
    result.map_err(|e| CliError::failed(format!("cannot draw {}: {e}", path.display())))
}

fn register_embedded_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are DejaVu Sans shipped inside the `dejavu` crate; they parse.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    });
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &BarChart,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let shown = |v: f64| {
        if chart.log_y {
            if v > 0.0 { v.log10() } else { 0.0 }
        } else {
            v
        }
    };
    let top = chart
        .series
        .iter()
        .flat_map(|s| {
            let highs = s.intervals.iter().flatten().map(|&(_, hi)| hi);
            s.values.iter().copied().chain(highs)
        })
        .map(shown)
        .fold(0.0f64, f64::max);
    let top = if top > 0.0 { top * 1.08 } else { 1.0 };
    let n = chart.categories.len().max(1);
    let mut plot = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(78)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)?;
    let categories = &chart.categories;
    let x_labels = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < categories.len() {
            categories[i as usize].clone()
        } else {
            String::new()
        }
    };
    let y_labels = |y: &f64| {
        if chart.log_y {
            format!("1e{y:.0}")
        } else {
            // Mesh values are sums of float steps: 0.15000000000000002 → 0.15.
            let text = format!("{y:.4}");
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    plot.configure_mesh()
        .disable_x_mesh()
        .x_labels(n.min(30))
        .x_label_formatter(&x_labels)
        .y_label_formatter(&y_labels)
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()?;
    let groups = chart.series.len().max(1) as f64;
    let width = 0.8 / groups;
    for (k, series) in chart.series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let offset = -0.4 + width * k as f64;
        let bars = series.values.iter().enumerate().map(|(i, &v)| {
            let left = i as f64 + offset;
            Rectangle::new(
                [(left, 0.0), (left + width * 0.92, shown(v))],
                color.filled(),
            )
        });
        plot.draw_series(bars)?
            .label(series.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
        if let Some(intervals) = &series.intervals {
            let bars =
                intervals
                    .iter()
                    .zip(&series.values)
                    .enumerate()
                    .map(|(i, (&(lo, hi), &v))| {
                        let center = i as f64 + offset + width * 0.46;
                        ErrorBar::new_vertical(
                            center,
                            shown(lo),
                            shown(v),
                            shown(hi),
                            BLACK.stroke_width(1),
                            6,
                        )
                    });
            plot.draw_series(bars)?;
        }
    }
    if chart.series.len() > 1 || !chart.series.iter().all(|s| s.name.is_empty()) {
        plot.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
