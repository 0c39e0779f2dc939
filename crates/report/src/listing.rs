//! One line per stored run for `--format table|json|csv` run lists. The store fills
//! [`ListedRun`]s from its rows; [`ListedRun::of`] fills one from a document.

use crate::metric::Metric;
use crate::phases::groups;
use crate::run::Run;
use crate::spread::Spread;
use serde::Serialize;
use std::collections::BTreeMap;

/// One figure of a run's headline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// `write`, `ior-easy-write`, `io500-total`, ...
    pub name: String,
    pub value: f64,
    /// `MiB/s`, `ops/s`, `GiB/s`, `kIOPS` or empty.
    pub unit: String,
}

/// A run in a list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedRun {
    pub id: String,
    /// When the run started, RFC 3339 UTC.
    pub when: String,
    pub host: String,
    pub workload: String,
    pub labels: BTreeMap<String, String>,
    pub complete: bool,
    /// The file or directory an imported run was read from; `None` for a run made here.
    pub imported_from: Option<String>,
    pub headline: Vec<Figure>,
}

impl ListedRun {
    /// From a document: an IO500's `[SCORE]` figures, else each phase's headline rate (median
    /// over iterations).
    pub fn of(run: &Run<'_>) -> ListedRun {
        let scores = Metric::io500_scores(run.doc);
        let headline = if scores.is_empty() {
            groups(run.doc)
                .iter()
                .filter_map(|g| {
                    let m = Metric::headline(g);
                    Spread::of(&m.samples(g)).map(|s| Figure {
                        name: g.key.clone(),
                        value: s.median,
                        unit: m.unit().to_string(),
                    })
                })
                .collect()
        } else {
            scores
                .into_iter()
                .map(|(m, v)| Figure {
                    name: match m {
                        Metric::Io500BandwidthGibS => "io500-bandwidth",
                        Metric::Io500IopsKiops => "io500-iops",
                        _ => "io500-total",
                    }
                    .to_string(),
                    value: v,
                    unit: m.unit().to_string(),
                })
                .collect()
        };
        ListedRun {
            id: run.id().to_string(),
            when: run.doc.started.clone(),
            host: run.doc.environment.hostname.clone(),
            workload: run.doc.workload().to_string(),
            labels: run.info.labels.clone(),
            complete: run.info.complete,
            imported_from: run.info.imported_from.clone(),
            headline,
        }
    }
}
