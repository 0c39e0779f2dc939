//! The scaling table: over runs that differ in ranks or nodes, each phase's aggregate rate and
//! the rate per rank (or node) against the count, with the parallel efficiency
//! `aggregate / (count × per-unit rate at the smallest count)`, as node-count tables in
//! storage papers give it. 100 % is perfect scaling from the smallest run.

use crate::metric::Metric;
use crate::phases::{groups, union_keys, PhaseGroup};
use crate::run::Run;
use crate::spread::Spread;
use serde::Serialize;

/// What the runs are scaled over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScaleBy {
    Ranks,
    Nodes,
}

impl ScaleBy {
    pub fn count(self, run: &Run<'_>) -> u64 {
        match self {
            ScaleBy::Ranks => run.doc.ranks.count,
            ScaleBy::Nodes => run.doc.ranks.nodes,
        }
    }

    /// "rank" or "node".
    pub fn unit(self) -> &'static str {
        match self {
            ScaleBy::Ranks => "rank",
            ScaleBy::Nodes => "node",
        }
    }
}

/// One run's figures at its count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScalePoint {
    pub run: String,
    pub count: u64,
    /// Median over iterations of the phase's headline rate.
    pub aggregate: f64,
    /// `aggregate / count`.
    pub per_unit: f64,
    /// `aggregate / (count × per_unit at the smallest count)`, a fraction (1.0 = 100 %).
    pub efficiency: f64,
}

/// One phase over the counts, smallest count first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseScaling {
    pub phase: String,
    pub metric: Metric,
    pub unit: &'static str,
    pub points: Vec<ScalePoint>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scaling {
    pub by: ScaleBy,
    pub phases: Vec<PhaseScaling>,
}

/// Why no table can be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScalingError {
    /// All runs have the same count of ranks and nodes (or fewer than two runs were given).
    NoDifference,
}

impl std::fmt::Display for ScalingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalingError::NoDifference => f.write_str(
                "a scaling table needs runs with different rank or node counts; these all have the same",
            ),
        }
    }
}

impl std::error::Error for ScalingError {}

/// Scales over `by`, or, when `None`, over nodes if the runs' node counts differ, else ranks.
/// Runs at the same count keep the order given; the efficiency's reference is the first run at
/// the smallest count that has the phase.
pub fn scaling(runs: &[Run<'_>], by: Option<ScaleBy>) -> Result<Scaling, ScalingError> {
    let differs = |b: ScaleBy| {
        let mut counts = runs.iter().map(|r| b.count(r));
        let first = counts.next();
        counts.any(|c| Some(c) != first)
    };
    let by = match by {
        Some(b) => b,
        None if differs(ScaleBy::Nodes) => ScaleBy::Nodes,
        None => ScaleBy::Ranks,
    };
    if !differs(by) {
        return Err(ScalingError::NoDifference);
    }
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| by.count(&runs[i])); // stable: equal counts keep their order
    let grouped: Vec<Vec<PhaseGroup<'_>>> = order.iter().map(|&i| groups(runs[i].doc)).collect();
    let phases = union_keys(grouped.iter().map(|g| g.as_slice()))
        .into_iter()
        .filter_map(|key| phase(&key, &order, runs, &grouped, by))
        .collect();
    Ok(Scaling { by, phases })
}

fn phase(
    key: &str,
    order: &[usize],
    runs: &[Run<'_>],
    grouped: &[Vec<PhaseGroup<'_>>],
    by: ScaleBy,
) -> Option<PhaseScaling> {
    let found: Vec<(usize, &PhaseGroup<'_>)> = order
        .iter()
        .zip(grouped)
        .filter_map(|(&i, gs)| gs.iter().find(|g| g.key == key).map(|g| (i, g)))
        .collect();
    let metric = Metric::headline(found.first()?.1);
    let mut points: Vec<ScalePoint> = found
        .iter()
        .filter_map(|&(i, g)| {
            let aggregate = Spread::of(&metric.samples(g))?.median;
            let count = by.count(&runs[i]);
            Some(ScalePoint {
                run: runs[i].id().to_string(),
                count,
                aggregate,
                per_unit: if count > 0 {
                    aggregate / count as f64
                } else {
                    0.0
                },
                efficiency: 0.0,
            })
        })
        .collect();
    let reference = points.first()?.per_unit;
    for p in &mut points {
        p.efficiency = if reference > 0.0 && p.count > 0 {
            p.aggregate / (p.count as f64 * reference)
        } else {
            0.0
        };
    }
    Some(PhaseScaling {
        phase: key.to_string(),
        metric,
        unit: metric.unit(),
        points,
    })
}
