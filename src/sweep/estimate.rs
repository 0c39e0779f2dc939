//! The dry run's estimate: the phase time that earlier runs of the same plan (any sweep with
//! the same command line and values) measured for each point. Nothing is guessed: a point no
//! earlier run measured is counted as unknown.

use std::collections::HashMap;

use store::{Filter, Label, RunId, Store};
use sweep::Point;

use super::plan::Plan;
use super::run::point_of;

pub struct Estimate {
    /// The summed phase times of the points with an earlier measurement.
    pub seconds: f64,
    /// How many of the points had one.
    pub known: usize,
}

pub fn of(store: &Store, plan: &Plan, todo: &[Point]) -> Option<Estimate> {
    let mut per_values: HashMap<Vec<String>, (f64, usize)> = HashMap::new();
    for sweep in store.sweeps_of(&plan.key()).ok()? {
        let filter = Filter {
            labels: vec![Label::new("sweep", &sweep.id.to_string())],
            ..Filter::default()
        };
        for r in store.list(&filter).ok()? {
            if !r.complete || r.exit_code != Some(0) {
                continue;
            }
            let (Some(p), Ok(run)) = (point_of(plan, &r.labels), store.load(RunId(r.id.0))) else {
                continue;
            };
            let secs: f64 = run.doc.phases.iter().map(|ph| ph.times.total_s).sum();
            let e = per_values.entry(p.values).or_insert((0.0, 0));
            e.0 += secs;
            e.1 += 1;
        }
    }
    if per_values.is_empty() {
        return None;
    }
    let mut est = Estimate {
        seconds: 0.0,
        known: 0,
    };
    for p in todo {
        if let Some((sum, n)) = per_values.get(&p.values) {
            est.seconds += sum / *n as f64;
            est.known += 1;
        }
    }
    Some(est)
}
