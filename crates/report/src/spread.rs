//! The arithmetic of comparing: a figure's spread over iterations, the trend rule, and the
//! percent difference with its better/worse verdict. Pure functions; `docs/reports.md` states
//! the rules.

use crate::metric::Direction;
use serde::Serialize;

/// Changes smaller than this (percent) are shown as "about the same" rather than with an arrow.
pub const SAME_WITHIN_PERCENT: f64 = 1.0;
/// The trend rule needs at least this many iterations.
pub const TREND_MIN_ITERATIONS: usize = 3;
/// ... a change from the first to the last iteration of more than this (percent) ...
pub const TREND_PERCENT: f64 = 10.0;
/// ... and at least this share of the steps between neighbouring iterations going that way.
pub const TREND_STEP_SHARE: f64 = 2.0 / 3.0;

/// A figure over a run's iterations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
    /// Iterations it covers.
    pub n: usize,
}

impl Spread {
    /// `None` for no values. The median of an even count is the mean of the middle two.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Some(Spread {
            min: v[0],
            median,
            max: v[n - 1],
            n,
        })
    }
}

/// The index of the iteration whose value is the (lower) median: the iteration a chart shows
/// when it shows one per run.
pub fn median_index(values: &[f64]) -> Option<usize> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    idx.get(values.len().saturating_sub(1) / 2).copied()
}

/// How a figure moved over the iterations of one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "trend", rename_all = "snake_case")]
pub enum Trend {
    /// Too few iterations, or no consistent move.
    Steady,
    /// Later iterations are worse: `percent` is how much worse the last is than the first.
    Degrading { percent: f64 },
    /// Later iterations are better (warm-up, caching).
    Improving { percent: f64 },
}

impl Trend {
    /// The trend rule: at least [`TREND_MIN_ITERATIONS`] iterations, the last more than
    /// [`TREND_PERCENT`] worse (better) than the first, and at least [`TREND_STEP_SHARE`] of the
    /// steps between neighbours worse (better). The step rule keeps one slow iteration at the
    /// end from reading as a trend; a monotone-ish drop passes it.
    pub fn of(values: &[f64], dir: Direction) -> Trend {
        if values.len() < TREND_MIN_ITERATIONS {
            return Trend::Steady;
        }
        let (first, last) = (values[0], values[values.len() - 1]);
        let Some(change) = percent_change(first, last) else {
            return Trend::Steady;
        };
        let gain = match dir {
            Direction::HigherIsBetter => change,
            Direction::LowerIsBetter => -change,
        };
        let steps = values.len() - 1;
        let worse_steps = values
            .windows(2)
            .filter(|w| verdict_sign(w[0], w[1], dir) < 0)
            .count();
        let better_steps = values
            .windows(2)
            .filter(|w| verdict_sign(w[0], w[1], dir) > 0)
            .count();
        let enough = |k: usize| k as f64 >= TREND_STEP_SHARE * steps as f64 - 1e-9;
        if gain < -TREND_PERCENT && enough(worse_steps) {
            Trend::Degrading { percent: -gain }
        } else if gain > TREND_PERCENT && enough(better_steps) {
            Trend::Improving { percent: gain }
        } else {
            Trend::Steady
        }
    }

    /// A note for tables; empty when steady.
    pub fn note(self) -> String {
        match self {
            Trend::Steady => String::new(),
            Trend::Degrading { percent } => {
                format!("degrading: last iteration {percent:.1}% worse than the first")
            }
            Trend::Improving { percent } => {
                format!("improving: last iteration {percent:.1}% better than the first")
            }
        }
    }
}

/// +1 when `b` is better than `a`, -1 when worse, 0 when equal.
fn verdict_sign(a: f64, b: f64, dir: Direction) -> i32 {
    let up = b.total_cmp(&a) as i32;
    match dir {
        Direction::HigherIsBetter => up,
        Direction::LowerIsBetter => -up,
    }
}

/// `(value - base) / base × 100`; `None` when the base is 0 or either is not finite.
pub fn percent_change(base: f64, value: f64) -> Option<f64> {
    if base == 0.0 || !base.is_finite() || !value.is_finite() {
        None
    } else {
        Some((value - base) / base.abs() * 100.0)
    }
}

/// Whether a change is good news.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Better,
    Worse,
    /// Within [`SAME_WITHIN_PERCENT`].
    Same,
}

impl Verdict {
    /// ▲ better, ▼ worse, ≈ about the same: the arrow says good or bad news, the sign of the
    /// percentage says which way the figure moved.
    pub fn arrow(self) -> &'static str {
        match self {
            Verdict::Better => "▲",
            Verdict::Worse => "▼",
            Verdict::Same => "≈",
        }
    }
}

/// A run's figure against the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta {
    /// `(value - baseline) / baseline × 100`.
    pub percent: f64,
    pub verdict: Verdict,
}

impl Delta {
    pub fn between(base: f64, value: f64, dir: Direction) -> Option<Delta> {
        let percent = percent_change(base, value)?;
        let verdict = if percent.abs() < SAME_WITHIN_PERCENT {
            Verdict::Same
        } else if (percent > 0.0) == (dir == Direction::HigherIsBetter) {
            Verdict::Better
        } else {
            Verdict::Worse
        };
        Some(Delta { percent, verdict })
    }

    /// `+12.3% ▲`.
    pub fn text(self) -> String {
        format!("{:+.1}% {}", self.percent, self.verdict.arrow())
    }
}

/// How much worse `value` is than `base`, in percent of `base` (negative when better).
pub fn worse_percent(base: f64, value: f64, dir: Direction) -> Option<f64> {
    let change = percent_change(base, value)?;
    Some(match dir {
        Direction::HigherIsBetter => -change,
        Direction::LowerIsBetter => change,
    })
}
