//! Advice read from the table: for each varied parameter and each figure, with the other
//! parameters held at each of their values, the best value, the point of diminishing returns
//! (where doubling adds less than a threshold), saturation, a fall after the peak, and the
//! differences the repeats cannot tell apart. Every finding carries its numbers; none is a
//! bare recommendation. Every figure a sweep tables is a rate: higher is better.

use serde::Serialize;

use crate::stats::{overlaps, Stats};
use crate::table::Matrix;
use crate::values::numeric;

/// Doubling that adds less than this (percent) is a diminishing return.
pub const DEFAULT_THRESHOLD_PERCENT: f64 = 5.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The value with the highest median.
    Best,
    /// Repeats of the best value overlap another value's: the difference may be noise.
    NotSignificant,
    /// From this value on, doubling the parameter adds less than the threshold.
    DiminishingReturns,
    /// Every larger value stays within the threshold of this one: a plateau.
    Saturation,
    /// Past the peak the figure falls by more than the threshold.
    Decline,
    /// A load ramp's knee (the `mix` workload).
    Knee,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The varied parameter.
    pub parameter: String,
    /// `write MiB/s`.
    pub figure: String,
    /// The other parameters' values the finding holds for.
    pub context: Vec<(String, String)>,
    pub kind: Kind,
    /// The parameter's value the finding is about.
    pub value: String,
    /// The finding in words, with its numbers.
    pub text: String,
}

/// One curve's points: a value of the parameter and its stats, in the axis' order.
type Points = Vec<(String, Stats)>;

/// The findings of the whole table, parameter by parameter, figure by figure.
pub fn advise(m: &Matrix, threshold_percent: f64) -> Vec<Finding> {
    let th = threshold_percent / 100.0;
    let mut out = Vec::new();
    for (a, axis) in m.axes.iter().enumerate() {
        for (c, col) in m.columns.iter().enumerate() {
            let figure = format!("{} {}", col.name, col.unit).trim().to_string();
            // Rows that agree on every other axis form one curve.
            let mut groups: Vec<(Vec<String>, Points)> = Vec::new();
            for row in &m.rows {
                let Some(stats) = row.cells[c] else { continue };
                let mut key = row.values.clone();
                let x = key.remove(a);
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, pts)) => pts.push((x, stats)),
                    None => groups.push((key, vec![(x, stats)])),
                }
            }
            for (key, points) in groups {
                let context: Vec<(String, String)> = m
                    .axes
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != a)
                    .map(|(_, ax)| ax.name.clone())
                    .zip(key)
                    .collect();
                let curve = Curve {
                    parameter: &axis.name,
                    figure: &figure,
                    unit: &col.unit,
                    context: &context,
                    points: &points,
                };
                curve.findings(th, &mut out);
            }
        }
    }
    out
}

struct Curve<'a> {
    parameter: &'a str,
    figure: &'a str,
    unit: &'a str,
    context: &'a [(String, String)],
    /// In the axis' order.
    points: &'a [(String, Stats)],
}

impl Curve<'_> {
    fn finding(&self, kind: Kind, value: &str, text: String) -> Finding {
        let ctx = if self.context.is_empty() {
            String::new()
        } else {
            let pairs: Vec<String> = self
                .context
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!(" (with {})", pairs.join(" "))
        };
        Finding {
            parameter: self.parameter.to_string(),
            figure: self.figure.to_string(),
            context: self.context.to_vec(),
            kind,
            value: value.to_string(),
            text: format!("{}{ctx}: {text}", self.figure),
        }
    }

    fn num(&self, v: f64) -> String {
        report::fmt::figure(v, self.unit)
    }

    fn range(&self, s: &Stats) -> String {
        if s.n == 1 {
            format!("{} (one repeat)", self.num(s.median))
        } else {
            format!(
                "median {} [{}–{}] over {} repeats",
                self.num(s.median),
                report::fmt::number(s.min),
                report::fmt::number(s.max),
                s.n
            )
        }
    }

    fn findings(&self, th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        if self.points.len() < 2 {
            return;
        }
        let best = self
            .points
            .iter()
            .max_by(|a, b| a.1.median.total_cmp(&b.1.median))
            .expect("two points or more");
        let runner = self
            .points
            .iter()
            .filter(|q| q.0 != best.0)
            .max_by(|a, b| a.1.median.total_cmp(&b.1.median))
            .expect("two points or more");
        out.push(self.finding(
            Kind::Best,
            &best.0,
            format!(
                "best at {p}={}: {}; next {p}={} at {} ({:+.1} %)",
                best.0,
                self.range(&best.1),
                runner.0,
                self.num(runner.1.median),
                pct(runner.1.median, best.1.median)
            ),
        ));
        let overlapping: Vec<&(String, Stats)> = self
            .points
            .iter()
            .filter(|q| q.0 != best.0 && q.1.n > 1 && best.1.n > 1 && overlaps(&q.1, &best.1))
            .collect();
        if !overlapping.is_empty() {
            let which: Vec<String> = overlapping
                .iter()
                .map(|q| {
                    format!(
                        "{p}={} [{}–{}]",
                        q.0,
                        report::fmt::number(q.1.min),
                        report::fmt::number(q.1.max)
                    )
                })
                .collect();
            out.push(self.finding(
                Kind::NotSignificant,
                &best.0,
                format!(
                    "the repeats of {p}={} [{}–{}] overlap those of {}: the difference is not \
                     significant",
                    best.0,
                    report::fmt::number(best.1.min),
                    report::fmt::number(best.1.max),
                    which.join(", ")
                ),
            ));
        }
        // Diminishing returns, saturation and decline need an order: numeric values only.
        let mut xs: Vec<(f64, &String, &Stats)> = Vec::new();
        for (v, s) in self.points {
            match numeric(v) {
                Some(x) if x > 0.0 => xs.push((x, v, s)),
                _ => return,
            }
        }
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.diminishing(&xs, th, out);
        self.saturation(&xs, th, out);
    }

    /// The first step whose gain per doubling, `(m2/m1)^(1/log2(x2/x1)) - 1`, is below the
    /// threshold.
    fn diminishing(&self, xs: &[(f64, &String, &Stats)], th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        let mut before: Option<f64> = None;
        for w in xs.windows(2) {
            let ((x1, v1, s1), (x2, v2, s2)) = (w[0], w[1]);
            if s1.median <= 0.0 {
                return;
            }
            let gain = per_doubling(x1, s1.median, x2, s2.median);
            if gain < 0.0 {
                // A fall, not a diminishing return: the saturation and decline say it.
                return;
            }
            if gain < th {
                let earlier = match before {
                    Some(g) => {
                        format!("; each doubling before it added {:.1} % or more", g * 100.0)
                    }
                    None => String::new(),
                };
                out.push(self.finding(
                    Kind::DiminishingReturns,
                    v1,
                    format!(
                        "diminishing returns from {p}={v1}: going to {v2} (x{}) takes the median \
                         from {} to {} ({:+.1} %, {:+.1} % per doubling, under {} %){earlier}",
                        ratio_text(x2 / x1),
                        self.num(s1.median),
                        self.num(s2.median),
                        pct(s2.median, s1.median),
                        gain * 100.0,
                        th * 100.0
                    ),
                ));
                return;
            }
            before = Some(before.map_or(gain, |b| b.min(gain)));
        }
    }

    /// Saturation: the first value every later value stays within the threshold of; decline:
    /// the last value lies more than the threshold below the peak.
    fn saturation(&self, xs: &[(f64, &String, &Stats)], th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        let last = xs.len() - 1;
        let sat = (0..last).find(|&i| {
            let m = xs[i].2.median;
            m > 0.0 && xs[i + 1..].iter().all(|q| (q.2.median - m).abs() <= m * th)
        });
        if let Some(i) = sat {
            let top = xs[i + 1..]
                .iter()
                .max_by(|a, b| a.2.median.total_cmp(&b.2.median))
                .expect("later values exist");
            out.push(self.finding(
                Kind::Saturation,
                xs[i].1,
                format!(
                    "saturates at {p}={}: {}; every larger value stays within {} % of it \
                     (the highest after it: {} at {p}={})",
                    xs[i].1,
                    self.num(xs[i].2.median),
                    th * 100.0,
                    self.num(top.2.median),
                    top.1
                ),
            ));
        }
        let peak = (0..=last)
            .max_by(|&a, &b| xs[a].2.median.total_cmp(&xs[b].2.median))
            .expect("points exist");
        let end = xs[last].2;
        if peak < last && end.median < xs[peak].2.median * (1.0 - th) {
            out.push(self.finding(
                Kind::Decline,
                xs[peak].1,
                format!(
                    "falls after {p}={}: {} there, {} at {p}={} ({:+.1} %)",
                    xs[peak].1,
                    self.num(xs[peak].2.median),
                    self.num(end.median),
                    xs[last].1,
                    pct(end.median, xs[peak].2.median)
                ),
            ));
        }
    }
}

/// The gain per doubling of x between two points.
pub(crate) fn per_doubling(x1: f64, m1: f64, x2: f64, m2: f64) -> f64 {
    (m2 / m1).powf(1.0 / (x2 / x1).log2()) - 1.0
}

fn pct(v: f64, base: f64) -> f64 {
    (v / base - 1.0) * 100.0
}

fn ratio_text(r: f64) -> String {
    if (r - r.round()).abs() < 1e-9 {
        format!("{}", r.round())
    } else {
        format!("{r:.2}")
    }
}

#[cfg(test)]
mod tests;
