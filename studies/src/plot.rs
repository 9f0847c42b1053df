//! The studies' plots as SVG text (plotters, SVG backend only): the random agent's curve,
//! diversity's histograms, the agents' success curves and a Phy-Q agent's rate per scenario.

use anyhow::{Context, Result};
use plotters::coord::ranged1d::AsRangedCoord;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use tasks::Tier;

/// The context of every drawing error (plotters' error is kept as its source).
const PLOT: &str = "cannot draw the plot";

/// A plot of `size` pixels drawn by `draw` on a white canvas, as SVG text.
fn svg_plot(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<()>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).context(PLOT)?;
        draw(&root)?;
        root.present().context(PLOT)?;
    }
    Ok(svg)
}

/// A chart in the plots' layout (22 px caption, 16 px margin, 44 px x-label area) over `x` × `y`.
#[allow(clippy::type_complexity)]
fn chart<'a, 's, X: AsRangedCoord, Y: AsRangedCoord>(
    root: &'a DrawingArea<SVGBackend<'s>, Shift>,
    caption: impl AsRef<str>,
    y_label_area: u32,
    x: X,
    y: Y,
) -> Result<ChartContext<'a, SVGBackend<'s>, Cartesian2d<X::CoordDescType, Y::CoordDescType>>> {
    ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(y_label_area)
        .build_cartesian_2d(x, y)
        .context(PLOT)
}

/// The legend of the labelled series, at `position`.
fn legend<'a, 's: 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'s>, CT>,
    position: SeriesLabelPosition,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .context(PLOT)
}

/// The random agent's success curve: mean share of tasks solved within k attempts (log-x), with
/// a ±1 standard deviation band. `points` are (k, mean, std).
pub fn curve_svg(
    tier: Tier,
    tasks: usize,
    runs: u32,
    points: &[(u32, f64, f64)],
) -> Result<String> {
    svg_plot((800, 520), |root| {
        let max_k = points.last().map_or(2, |p| p.0).max(2) as f64;
        let mut chart = chart(
            root,
            format!("Random agent, {tier} tier: {tasks} tasks, {runs} runs"),
            56,
            (1f64..max_k).log_scale(),
            0f64..1f64,
        )?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.1}"))
            .x_desc("valid attempts per task")
            .y_desc("share of tasks solved")
            .draw()
            .context(PLOT)?;
        let mut band: Vec<(f64, f64)> = points
            .iter()
            .map(|&(k, m, s)| (k as f64, (m + s).min(1.0)))
            .collect();
        band.extend(
            points
                .iter()
                .rev()
                .map(|&(k, m, s)| (k as f64, (m - s).max(0.0))),
        );
        chart
            .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.2).filled())))
            .context(PLOT)?
            .label("± 1 std")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.mix(0.2).filled()));
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(k, m, _)| (k as f64, m)),
                BLUE.stroke_width(2),
            ))
            .context(PLOT)?
            .label("mean")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Per template, the share of sampled actions that solve exactly k of its tasks (log-y; zero
/// counts are left out).
pub fn diversity_svg(tier: Tier, samples: u64, series: &[(String, Vec<u64>)]) -> Result<String> {
    svg_plot((900, 560), |root| {
        let max_k = series.iter().map(|s| s.1.len()).max().unwrap_or(2).max(2) as f64 - 1.0;
        let n = samples.max(1) as f64;
        let min_share = (0.5 / n).min(0.5);
        let mut chart = chart(
            root,
            format!("Solution diversity, {tier} tier, {samples} random actions"),
            64,
            0f64..max_k.max(1.0),
            (min_share..1f64).log_scale(),
        )?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_labels((max_k as usize + 1).min(21))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .x_desc("tasks of the template solved by one action")
            .y_desc("share of actions")
            .draw()
            .context(PLOT)?;
        for (i, (name, hist)) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let pts: Vec<(f64, f64)> = hist
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(k, &c)| (k as f64, c as f64 / n))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(1)))
                .context(PLOT)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 2, colour.filled())))
                .context(PLOT)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// Success curves of agents: share of test tasks solved within k valid attempts (log-x), one
/// line per (agent, setup). `series` are (label, s_1 … s_100).
pub fn success_curves_svg(series: &[(String, Vec<f64>)]) -> Result<String> {
    svg_plot((900, 560), |root| {
        let max_k = series.iter().map(|s| s.1.len()).max().unwrap_or(2).max(2) as f64;
        let top = series
            .iter()
            .flat_map(|s| s.1.iter().copied())
            .fold(0.05f64, f64::max)
            .min(1.0);
        let mut chart = chart(
            root,
            "Success curves (share of test tasks solved within k attempts)",
            56,
            (1f64..max_k).log_scale(),
            0f64..top,
        )?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .x_desc("valid attempts per task")
            .y_desc("share of tasks solved")
            .draw()
            .context(PLOT)?;
        for (i, (name, curve)) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    curve.iter().enumerate().map(|(k, &s)| ((k + 1) as f64, s)),
                    colour.stroke_width(2),
                ))
                .context(PLOT)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Pass rate per Phy-Q scenario, bars side by side for each series (the paper's Figure 4a):
/// `series` are (label, rate of scenarios 1..=15; `None` where it has none).
pub fn phyq_scenarios_svg(series: &[(String, Vec<Option<f64>>)]) -> Result<String> {
    svg_plot((1000, 520), |root| {
        // Scenario s is centred on x = s.
        let mut chart = chart(
            root,
            "Pass rate per scenario",
            56,
            0.5f64..15.5f64,
            0f64..1f64,
        )?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(16)
            .x_label_formatter(&|x| {
                let s = x.round();
                if (1.0..=15.0).contains(&s) && (x - s).abs() < 1e-6 {
                    format!("{s:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| format!("{:.0} %", y * 100.0))
            .x_desc("scenario")
            .y_desc("pass rate")
            .draw()
            .context(PLOT)?;
        let width = 0.8 / series.len().max(1) as f64;
        for (i, (name, rates)) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let left = width * i as f64 - 0.4;
            chart
                .draw_series(rates.iter().enumerate().filter_map(|(s, r)| {
                    r.map(|r| {
                        let x0 = (s + 1) as f64 + left;
                        Rectangle::new([(x0, 0.0), (x0 + width, r)], colour.filled())
                    })
                }))
                .context(PLOT)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
