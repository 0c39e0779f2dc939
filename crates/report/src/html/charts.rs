//! The data of every chart a page draws, built from the document: rate per interval, latency
//! CDF from the histogram buckets, per-rank finish times, the headline figure per iteration,
//! and bars of one figure per run. The page's script hands these to uPlot unchanged.

use crate::metric::Metric;
use results::system::{SystemFigures, SystemPoint};
use results::PhaseResult;
use serde::Serialize;

const MIB: f64 = 1_048_576.0;

/// How a chart draws its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Lines,
    /// Dots only (per-rank times: a straggler stands apart).
    Points,
    /// One bar per x (x are category indices, named by `x_names`).
    Bars,
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub label: String,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    /// The `data-chart` marker of its element.
    pub id: String,
    pub title: String,
    pub style: Style,
    pub x_label: String,
    pub y_label: String,
    /// "ns" when x is a latency (log scale, ticks in µs/ms).
    pub x_unit: String,
    pub x_names: Vec<String>,
    /// x counts things (ranks, iterations): ticks at whole numbers only.
    pub x_integer: bool,
    pub lines: Vec<Line>,
    /// Vertical lines at x with their text (the run's marks), drawn over the lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<ChartMark>,
}

/// A mark on a chart: at x (seconds from the phase's start), labelled with its text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartMark {
    pub x: f64,
    pub text: String,
}

impl Chart {
    fn new(id: String, title: String, style: Style, x: &str, y: &str) -> Chart {
        Chart {
            id,
            title,
            style,
            x_label: x.to_string(),
            y_label: y.to_string(),
            x_unit: String::new(),
            x_names: Vec::new(),
            x_integer: false,
            lines: Vec::new(),
            marks: Vec::new(),
        }
    }

    pub(super) fn with_marks(mut self, marks: Vec<ChartMark>) -> Chart {
        self.marks = marks;
        self
    }

    /// Values drawn; a chart with none is left out of the page.
    pub fn points(&self) -> usize {
        self.lines.iter().map(|l| l.y.len()).sum()
    }

    pub(super) fn with(mut self, lines: Vec<Line>) -> Option<Chart> {
        self.lines = lines.into_iter().filter(|l| !l.y.is_empty()).collect();
        (self.points() > 0).then_some(self)
    }
}

/// Bandwidth (or, for phases that move no bytes, operations) per interval, at each
/// interval's middle. The last interval is divided by the part of it before the phase's end
/// (`times.total_s`), so a phase that ends early in its last interval is not shown slower.
pub fn series(id: &str, title: &str, lines: &[(String, &PhaseResult)]) -> Option<Chart> {
    let bytes = lines.iter().any(|(_, p)| p.bytes > 0);
    let y = if bytes { "MiB/s" } else { "ops/s" };
    let out = lines
        .iter()
        .map(|(label, p)| {
            let w = p.series.interval_s;
            let n = p.series.buckets.len();
            let (mut xs, mut ys) = (Vec::with_capacity(n), Vec::with_capacity(n));
            for (i, b) in p.series.buckets.iter().enumerate() {
                let left = p.times.total_s - b.t_s;
                let width = if i + 1 == n && left > 0.0 && left < w {
                    left
                } else {
                    w
                };
                if width <= 0.0 {
                    continue;
                }
                xs.push(b.t_s + width / 2.0);
                ys.push(if bytes {
                    b.bytes as f64 / MIB / width
                } else {
                    b.ops as f64 / width
                });
            }
            Line {
                label: label.clone(),
                x: xs,
                y: ys,
            }
        })
        .collect();
    Chart::new(
        format!("series-{id}"),
        format!(
            "{title}: {} over time",
            if bytes { "bandwidth" } else { "operations" }
        ),
        Style::Lines,
        "seconds from phase start",
        y,
    )
    .with(out)
}

/// What the system did per sampler interval (`system.series`): the target devices' bytes
/// per second at each interval's middle and the node's dirty bytes at its end, in MiB.
pub fn system(id: &str, title: &str, lines: &[(String, &SystemFigures)]) -> Option<Chart> {
    let mut out = Vec::new();
    for (label, f) in lines {
        let pts = &f.series;
        let rate = |p: &SystemPoint, b: u64| b as f64 / MIB / p.width_s;
        let timed: Vec<&SystemPoint> = pts.iter().filter(|p| p.width_s > 0.0).collect();
        let mid: Vec<f64> = timed.iter().map(|p| p.t_s + p.width_s / 2.0).collect();
        let named = |what: &str| match label.is_empty() {
            true => what.to_string(),
            false => format!("{what}, {label}"),
        };
        out.push(Line {
            label: named("device write MiB/s"),
            x: mid.clone(),
            y: timed
                .iter()
                .map(|p| rate(p, p.device_write_bytes))
                .collect(),
        });
        if timed.iter().any(|p| p.device_read_bytes > 0) {
            out.push(Line {
                label: named("device read MiB/s"),
                x: mid,
                y: timed.iter().map(|p| rate(p, p.device_read_bytes)).collect(),
            });
        }
        out.push(Line {
            label: named("dirty MiB"),
            x: pts.iter().map(|p| p.t_s + p.width_s).collect(),
            y: pts.iter().map(|p| p.dirty_bytes as f64 / MIB).collect(),
        });
    }
    Chart::new(
        format!("system-{id}"),
        format!("{title}: device traffic and dirty pages"),
        Style::Lines,
        "seconds from phase start",
        "MiB/s · MiB",
    )
    .with(out)
}

/// A histogram's occupied buckets as (highest equivalent latency in ns, count).
pub type Buckets = Vec<(u64, u64)>;

/// The share of operations at or below each bucket's latency (percent).
pub fn cdf(id: &str, title: &str, lines: Vec<(String, Buckets)>) -> Option<Chart> {
    let out = lines
        .into_iter()
        .map(|(label, buckets)| {
            let total: u64 = buckets.iter().map(|b| b.1).sum();
            let mut seen = 0u64;
            let (mut xs, mut ys) = (Vec::new(), Vec::new());
            for &(value, count) in buckets.iter().filter(|_| total > 0) {
                seen += count;
                xs.push(value as f64);
                ys.push(seen as f64 * 100.0 / total as f64);
            }
            Line {
                label,
                x: xs,
                y: ys,
            }
        })
        .collect();
    let mut c = Chart::new(
        format!("cdf-{id}"),
        format!("{title}: latency CDF"),
        Style::Lines,
        "latency",
        "% of operations ≤",
    );
    c.x_unit = "ns".to_string();
    c.with(out)
}

/// Buckets of several histograms of the same layout added up (every iteration of a run).
pub fn merge_buckets<'a>(phases: impl IntoIterator<Item = &'a PhaseResult>) -> Buckets {
    let mut all: Buckets = phases
        .into_iter()
        .flat_map(|p| p.latency.buckets.iter().map(|b| (b.value, b.count)))
        .collect();
    all.sort_by_key(|b| b.0);
    let mut out: Buckets = Vec::with_capacity(all.len());
    for (value, count) in all {
        match out.last_mut() {
            Some(last) if last.0 == value => last.1 += count,
            _ => out.push((value, count)),
        }
    }
    out
}

/// Each rank's finish time (`close_stop_s`).
pub fn ranks(id: &str, title: &str, lines: &[(String, &PhaseResult)]) -> Option<Chart> {
    let out = lines
        .iter()
        .map(|(label, p)| Line {
            label: label.clone(),
            x: p.per_rank.iter().map(|r| r.rank as f64).collect(),
            y: p.per_rank.iter().map(|r| r.close_stop_s).collect(),
        })
        .collect();
    let mut c = Chart::new(
        format!("ranks-{id}"),
        format!("{title}: when each rank finished"),
        Style::Points,
        "rank",
        "seconds from phase start",
    );
    c.x_integer = true;
    c.with(out)
}

/// The headline figure per iteration, one line per run.
pub fn iterations(
    id: &str,
    title: &str,
    metric: Metric,
    lines: Vec<(String, Vec<f64>)>,
) -> Option<Chart> {
    let out = lines
        .into_iter()
        .map(|(label, values)| Line {
            label,
            x: (0..values.len()).map(|i| i as f64).collect(),
            y: values,
        })
        .collect();
    let mut c = Chart::new(
        format!("iters-{id}"),
        format!("{title}: {} per iteration", metric.label()),
        Style::Lines,
        "iteration",
        metric.unit(),
    );
    c.x_integer = true;
    c.with(out)
}

/// One bar per run: a figure's median over iterations.
pub fn bars(
    id: &str,
    title: &str,
    metric: Metric,
    runs: Vec<(String, Option<f64>)>,
) -> Option<Chart> {
    let mut line = Line {
        label: metric.label().to_string(),
        x: Vec::new(),
        y: Vec::new(),
    };
    let mut names = Vec::new();
    for (i, (name, v)) in runs.into_iter().enumerate() {
        names.push(name);
        if let Some(v) = v {
            line.x.push(i as f64);
            line.y.push(v);
        }
    }
    let mut c = Chart::new(
        format!("bars-{id}"),
        format!("{title}: {} (median)", metric.label()),
        Style::Bars,
        "run",
        metric.unit(),
    );
    c.x_names = names;
    c.with(vec![line])
}
