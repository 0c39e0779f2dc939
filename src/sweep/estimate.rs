//! The dry run's estimate: how long earlier runs of each point's command line took on this
//! host, whole (from the run's start to its end, as stored), whichever sweep or plain run they
//! were. Nothing is guessed: a point no earlier run measured is counted as unknown.

use std::collections::HashMap;

use store::{Filter, RunId, Store};
use sweep::Point;

use super::design::Design;
use super::names::Knob;

/// How many stored runs of the workload the estimate reads at most (the newest).
const RECENT: usize = 2000;

pub struct Estimate {
    /// The summed mean durations of the points with an earlier run.
    pub seconds: f64,
    /// How many of the points had one.
    pub known: usize,
}

pub fn of(store: &Store, design: &Design, knobs: &[Knob], todo: &[Point]) -> Estimate {
    let lines: Vec<Vec<String>> = todo
        .iter()
        .map(|p| design.point_args(knobs, &p.values))
        .collect();
    let filter = Filter {
        workload: Some(design.tool().to_string()),
        host: Some(results::hostname()),
        ..Filter::default()
    };
    let runs = store.list(&filter).unwrap_or_default();
    // Durations by command line; a stored command line ends with the point's (a sweep's
    // points carry their labels and store before it, argv[0] is the binary).
    let mut took: HashMap<&[String], (f64, usize)> = HashMap::new();
    for r in runs.iter().rev().take(RECENT) {
        if !r.complete || r.exit_code != Some(0) {
            continue;
        }
        let Ok(run) = store.load(RunId(r.id.0)) else {
            continue;
        };
        let doc = &run.doc;
        let Some(line) = lines.iter().find(|l| doc.command_line.ends_with(l)) else {
            continue;
        };
        if let Some(s) = measure::rfc3339_seconds_between(&doc.started, &doc.finished) {
            let e = took.entry(line.as_slice()).or_insert((0.0, 0));
            e.0 += s;
            e.1 += 1;
        }
    }
    let mut est = Estimate {
        seconds: 0.0,
        known: 0,
    };
    for l in &lines {
        if let Some((sum, n)) = took.get(l.as_slice()) {
            est.seconds += sum / *n as f64;
            est.known += 1;
        }
    }
    est
}
