//! The figures the reports compare, each with its unit and which way is better. A table of
//! figures, not a branch per workload: a phase offers every figure it has data for.

use crate::phases::PhaseGroup;
use results::io500::ScoreUnit;
use results::{PhaseResult, RunResult};
use serde::Serialize;

/// Which way a figure improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Rates: bandwidth, operations per second, scores.
    HigherIsBetter,
    /// Latencies and times.
    LowerIsBetter,
}

impl Direction {
    /// The direction of a figure known only by its unit (a stored headline figure): times
    /// (`s`, `ms`, `ns`) fall as they improve, everything else (rates, scores) rises.
    pub fn of_unit(unit: &str) -> Direction {
        match unit {
            "s" | "ms" | "us" | "µs" | "ns" => Direction::LowerIsBetter,
            _ => Direction::HigherIsBetter,
        }
    }

    /// `value` as a figure that rises as it improves (a time's reciprocal), for comparing
    /// points whichever way the figure goes.
    pub fn goodness(self, value: f64) -> f64 {
        match self {
            Direction::HigherIsBetter => value,
            Direction::LowerIsBetter => 1.0 / value,
        }
    }
}

/// One figure of a phase (or, for the `Io500*` ones, of a whole IO500 run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// `bandwidth_mib_s` (MiB/s, as IOR).
    BandwidthMibS,
    /// `iops` (operations per second).
    Iops,
    /// `times.total_s`.
    TimeS,
    /// The 50th latency percentile (ns).
    LatencyP50Ns,
    /// The 99th latency percentile (ns).
    LatencyP99Ns,
    /// The IO500's score of a bandwidth phase (GiB/s).
    ScoreGibS,
    /// The IO500's score of a metadata phase (kIOPS).
    ScoreKiops,
    /// `[SCORE]` bandwidth (GiB/s).
    Io500BandwidthGibS,
    /// `[SCORE]` IOPS (kIOPS).
    Io500IopsKiops,
    /// `[SCORE]` total.
    Io500Total,
}

impl Metric {
    pub fn direction(self) -> Direction {
        match self {
            Metric::TimeS | Metric::LatencyP50Ns | Metric::LatencyP99Ns => Direction::LowerIsBetter,
            _ => Direction::HigherIsBetter,
        }
    }

    /// Short name for tables.
    pub fn label(self) -> &'static str {
        match self {
            Metric::BandwidthMibS => "bandwidth",
            Metric::Iops => "IOPS",
            Metric::TimeS => "time",
            Metric::LatencyP50Ns => "latency p50",
            Metric::LatencyP99Ns => "latency p99",
            Metric::ScoreGibS | Metric::ScoreKiops => "IO500 score",
            Metric::Io500BandwidthGibS => "bandwidth score",
            Metric::Io500IopsKiops => "IOPS score",
            Metric::Io500Total => "total score",
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Metric::BandwidthMibS => "MiB/s",
            Metric::Iops => "ops/s",
            Metric::TimeS => "s",
            Metric::LatencyP50Ns | Metric::LatencyP99Ns => "ns",
            Metric::ScoreGibS | Metric::Io500BandwidthGibS => "GiB/s",
            Metric::ScoreKiops | Metric::Io500IopsKiops => "kIOPS",
            Metric::Io500Total => "",
        }
    }

    /// The figure of one iteration; `None` for the score metrics, which are not per iteration.
    pub fn of_phase(self, p: &PhaseResult) -> Option<f64> {
        match self {
            Metric::BandwidthMibS => Some(p.bandwidth_mib_s),
            Metric::Iops => Some(p.iops),
            Metric::TimeS => Some(p.times.total_s),
            Metric::LatencyP50Ns => percentile(p, 50.0),
            Metric::LatencyP99Ns => percentile(p, 99.0),
            _ => None,
        }
    }

    /// The figure per iteration, in order (one value for an IO500 phase score).
    pub fn samples(self, g: &PhaseGroup<'_>) -> Vec<f64> {
        match self {
            Metric::ScoreGibS | Metric::ScoreKiops => {
                g.io500.map(|s| s.score).into_iter().collect()
            }
            _ => g
                .iterations
                .iter()
                .filter_map(|p| self.of_phase(p))
                .collect(),
        }
    }

    /// The figures a phase offers, the headline first.
    pub fn for_group(g: &PhaseGroup<'_>) -> Vec<Metric> {
        let mut out = Vec::new();
        if let Some(s) = g.io500 {
            out.push(score_metric(s.unit));
        }
        if g.moves_bytes() {
            out.push(Metric::BandwidthMibS);
        }
        out.push(Metric::Iops);
        out.push(Metric::TimeS);
        if g.has_latency() {
            out.extend([Metric::LatencyP50Ns, Metric::LatencyP99Ns]);
        }
        out
    }

    /// The one rate a phase is judged by: its IO500 score, else bandwidth when it moves bytes,
    /// else operations per second.
    pub fn headline(g: &PhaseGroup<'_>) -> Metric {
        match g.io500 {
            Some(s) => score_metric(s.unit),
            None if g.moves_bytes() => Metric::BandwidthMibS,
            None => Metric::Iops,
        }
    }

    /// The `[SCORE]` figures of an IO500 run; empty before the run has a score.
    pub fn io500_scores(doc: &RunResult) -> Vec<(Metric, f64)> {
        match doc.io500.as_ref().and_then(|r| r.score.as_ref()) {
            Some(s) => vec![
                (Metric::Io500BandwidthGibS, s.bandwidth_gib_s),
                (Metric::Io500IopsKiops, s.iops_kiops),
                (Metric::Io500Total, s.total),
            ],
            None => Vec::new(),
        }
    }
}

fn score_metric(unit: ScoreUnit) -> Metric {
    match unit {
        ScoreUnit::GibPerS => Metric::ScoreGibS,
        ScoreUnit::Kiops => Metric::ScoreKiops,
    }
}

/// The recorded percentile `p`, `None` when the phase recorded no latency.
fn percentile(p: &PhaseResult, at: f64) -> Option<f64> {
    if p.latency.count == 0 {
        return None;
    }
    p.latency
        .percentiles
        .iter()
        .find(|q| (q.p - at).abs() < 1e-9)
        .map(|q| q.value as f64)
}
