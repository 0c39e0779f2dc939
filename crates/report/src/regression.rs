//! The regression check for CI: which phases of a candidate run are more than P % slower than
//! the baseline's. "Slower" is judged on each phase's headline rate (its IO500 score, else
//! bandwidth when it moves bytes, else operations per second), median over iterations.

use crate::metric::Metric;
use crate::phases::groups;
use crate::run::Run;
use crate::spread::{worse_percent, Spread};
use serde::Serialize;

/// One phase both runs have.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseCheck {
    pub phase: String,
    pub metric: Metric,
    pub unit: &'static str,
    /// Median over the baseline's iterations.
    pub baseline: f64,
    /// Median over the candidate's iterations.
    pub candidate: f64,
    /// How much slower the candidate is, in percent of the baseline (negative: faster).
    pub slower_percent: f64,
    /// `slower_percent > threshold_percent`.
    pub regressed: bool,
}

/// The typed verdict; the CLI turns [`RegressionCheck::passed`] into its exit code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegressionCheck {
    pub baseline: String,
    pub candidate: String,
    pub threshold_percent: f64,
    /// Phases both runs have, in the baseline's order.
    pub phases: Vec<PhaseCheck>,
    /// Baseline phases the candidate lacks (reported, not counted as a regression: a run that
    /// stopped early is flagged by its `complete` flag).
    pub missing: Vec<String>,
}

impl RegressionCheck {
    pub fn regressions(&self) -> impl Iterator<Item = &PhaseCheck> {
        self.phases.iter().filter(|p| p.regressed)
    }

    /// No phase is more than the threshold slower.
    pub fn passed(&self) -> bool {
        self.regressions().next().is_none()
    }
}

/// Checks `candidate` against `baseline` with a threshold of `threshold_percent`.
pub fn check(baseline: &Run<'_>, candidate: &Run<'_>, threshold_percent: f64) -> RegressionCheck {
    let cand = groups(candidate.doc);
    let mut phases = Vec::new();
    let mut missing = Vec::new();
    for a in groups(baseline.doc) {
        let Some(b) = cand.iter().find(|g| g.key == a.key) else {
            missing.push(a.key);
            continue;
        };
        let metric = Metric::headline(&a);
        let (Some(sa), Some(sb)) = (
            Spread::of(&metric.samples(&a)),
            Spread::of(&metric.samples(b)),
        ) else {
            missing.push(a.key);
            continue;
        };
        // A baseline of 0 gives no percentage; a phase cannot get slower than nothing.
        let slower = worse_percent(sa.median, sb.median, metric.direction()).unwrap_or(0.0);
        phases.push(PhaseCheck {
            phase: a.key.clone(),
            metric,
            unit: metric.unit(),
            baseline: sa.median,
            candidate: sb.median,
            slower_percent: slower,
            regressed: slower > threshold_percent,
        });
    }
    RegressionCheck {
        baseline: baseline.id().to_string(),
        candidate: candidate.id().to_string(),
        threshold_percent,
        phases,
        missing,
    }
}
