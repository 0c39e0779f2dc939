//! Advice read from the table: for each varied parameter and each figure, with the other
//! parameters held at each of their values, the best value, the point of diminishing returns
//! (where doubling adds less than a threshold), saturation, a fall after the peak, and the
//! differences the repeats cannot tell apart. Every finding carries its numbers; none is a
//! bare recommendation. A figure's unit says which way is better (`Direction::of_unit`):
//! rates and scores rise as they improve, times (a start-up's) fall; the rules compare
//! "goodness" (a time's reciprocal), the texts show the figures as measured.

use report::Direction;
use serde::Serialize;

use crate::stats::{overlaps, Stats};
use crate::table::Matrix;
use crate::values::numeric;

/// Doubling that adds less than this (percent) is a diminishing return.
pub const DEFAULT_THRESHOLD_PERCENT: f64 = 5.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The value with the best median (the highest rate, the shortest time).
    Best,
    /// Repeats of the best value overlap another value's: the difference may be noise.
    NotSignificant,
    /// From this value on, every doubling of the parameter improves the figure by less than
    /// the threshold (or makes it worse).
    DiminishingReturns,
    /// At least two larger values, and every one stays within the threshold of this one: a
    /// plateau.
    Saturation,
    /// Past the best value the figure ends more than the threshold worse.
    Decline,
    /// A load ramp's knee (the `mix` workload).
    Knee,
    /// The most ranks (emulated accelerators) that keep DLIO's AU at its threshold (`dlio`).
    MostAccelerators,
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
                    dir: Direction::of_unit(&col.unit),
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
    dir: Direction,
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

    /// A value in a range (`[min–max]`): without its unit, except a time below a second.
    fn bare(&self, v: f64) -> String {
        crate::table::value_text(v, self.unit)
    }

    fn range(&self, s: &Stats) -> String {
        if s.n == 1 {
            format!("{} (one repeat)", self.num(s.median))
        } else {
            format!(
                "median {} [{}–{}] over {} repeats",
                self.num(s.median),
                self.bare(s.min),
                self.bare(s.max),
                s.n
            )
        }
    }

    fn findings(&self, th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        if self.points.len() < 2 {
            return;
        }
        let good = |q: &&(String, Stats)| self.dir.goodness(q.1.median);
        let best = self
            .points
            .iter()
            .max_by(|a, b| good(a).total_cmp(&good(b)))
            .expect("two points or more");
        let runner = self
            .points
            .iter()
            .filter(|q| q.0 != best.0)
            .max_by(|a, b| good(a).total_cmp(&good(b)))
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
                        self.bare(q.1.min),
                        self.bare(q.1.max)
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
                    self.bare(best.1.min),
                    self.bare(best.1.max),
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

    /// The goodness of point `i` (its median as a rate, a time's reciprocal).
    fn good(&self, xs: &[(f64, &String, &Stats)], i: usize) -> f64 {
        self.dir.goodness(xs[i].2.median)
    }

    /// The first value from which every later step improves the figure by less than the
    /// threshold per doubling, `(g2/g1)^(1/log2(x2/x1)) - 1` of the goodness `g` (a small
    /// loss included: it adds less than the threshold too).
    fn diminishing(&self, xs: &[(f64, &String, &Stats)], th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        if xs.iter().any(|q| q.2.median <= 0.0) {
            return;
        }
        let gains: Vec<f64> = (1..xs.len())
            .map(|i| per_doubling(xs[i - 1].0, self.good(xs, i - 1), xs[i].0, self.good(xs, i)))
            .collect();
        let Some(i) = (0..gains.len()).find(|&i| gains[i..].iter().all(|&g| g < th)) else {
            return;
        };
        let ((x1, v1, s1), (x2, v2, s2)) = (xs[i], xs[i + 1]);
        let earlier = match gains[..i].iter().copied().reduce(f64::min) {
            Some(g) => format!(
                "; each doubling before it improved it by {:.1} % or more",
                g * 100.0
            ),
            None => String::new(),
        };
        out.push(self.finding(
            Kind::DiminishingReturns,
            v1,
            format!(
                "diminishing returns from {p}={v1}: going to {v2} (x{}) takes the median from {} \
                 to {} ({:+.1} %, {:+.1} % better per doubling, under {} %, as every later \
                 step){earlier}",
                ratio_text(x2 / x1),
                self.num(s1.median),
                self.num(s2.median),
                pct(s2.median, s1.median),
                gains[i] * 100.0,
                th * 100.0
            ),
        ));
    }

    /// Saturation: the first value with two or more larger ones that all stay within the
    /// threshold of it (one point alone is no plateau); decline: the last value lies more
    /// than the threshold worse than the best one.
    fn saturation(&self, xs: &[(f64, &String, &Stats)], th: f64, out: &mut Vec<Finding>) {
        let p = self.parameter;
        let last = xs.len() - 1;
        let sat = (0..last.saturating_sub(1)).find(|&i| {
            let m = xs[i].2.median;
            m > 0.0 && xs[i + 1..].iter().all(|q| (q.2.median - m).abs() <= m * th)
        });
        if let Some(i) = sat {
            let top = (i + 1..=last)
                .max_by(|&a, &b| self.good(xs, a).total_cmp(&self.good(xs, b)))
                .expect("later values exist");
            out.push(self.finding(
                Kind::Saturation,
                xs[i].1,
                format!(
                    "saturates at {p}={}: {}; every larger value stays within {} % of it \
                     (the best after it: {} at {p}={})",
                    xs[i].1,
                    self.num(xs[i].2.median),
                    th * 100.0,
                    self.num(xs[top].2.median),
                    xs[top].1
                ),
            ));
        }
        let peak = (0..=last)
            .max_by(|&a, &b| self.good(xs, a).total_cmp(&self.good(xs, b)))
            .expect("points exist");
        if peak < last && self.good(xs, last) < self.good(xs, peak) * (1.0 - th) {
            let verb = match self.dir {
                Direction::HigherIsBetter => "falls",
                Direction::LowerIsBetter => "grows",
            };
            out.push(self.finding(
                Kind::Decline,
                xs[peak].1,
                format!(
                    "{verb} after {p}={}: {} there, {} at {p}={} ({:+.1} %)",
                    xs[peak].1,
                    self.num(xs[peak].2.median),
                    self.num(xs[last].2.median),
                    xs[last].1,
                    pct(xs[last].2.median, xs[peak].2.median)
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
