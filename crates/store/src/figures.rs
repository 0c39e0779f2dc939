//! The headline figures of a run, what a listing shows beside it: IOR's best write and read
//! bandwidth, mdtest's and find's best rates, the IO500's scores. Computed from the document
//! when it is stored, so a listing does not parse documents.

use results::{Operation, Parameters, PhaseResult, RunResult};

/// One figure: `write 1234.5 MiB/s`, `score 192.39`. `valid` is false for a figure its own
/// rules call invalid (an invalid IO500 score), so a listing never shows it as a clean result.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: String,
    pub valid: bool,
}

impl Figure {
    fn new(name: &str, value: f64, unit: &str, valid: bool) -> Figure {
        Figure {
            name: name.to_string(),
            value,
            unit: unit.to_string(),
            valid,
        }
    }
}

/// The run's headline figures, in the order a listing shows them.
pub fn headline(doc: &RunResult) -> Vec<Figure> {
    match &doc.parameters {
        Parameters::Ior(_) => best(&doc.phases, |_| true, |p| p.bandwidth_mib_s, "MiB/s"),
        // Tree creation and removal are one operation per run: not a rate worth a column.
        Parameters::Mdtest(_) | Parameters::Find(_) | Parameters::MdWorkbench(_) => {
            best(&doc.phases, |op| !op.is_tree(), |p| p.iops, "ops/s")
        }
        // A start-up's figure is its time until the last rank was done: the shortest.
        Parameters::Startup(_) => best(&doc.phases, |_| true, |p| -p.times.total_s, "s")
            .into_iter()
            .map(|f| Figure {
                value: -f.value,
                ..f
            })
            .collect(),
        // The knee is the figure a mix run is for; none when no step stayed within the limit.
        Parameters::Mix(_) => doc
            .mix
            .as_ref()
            .and_then(|m| m.knee.as_ref())
            .map(|k| vec![Figure::new("knee", k.achieved_ops_s, "ops/s", true)])
            .unwrap_or_default(),
        Parameters::Io500(_) => {
            let Some(s) = doc.io500.as_ref().and_then(|r| r.score.as_ref()) else {
                return Vec::new();
            };
            vec![
                Figure::new("score", s.total, "", s.valid),
                Figure::new("bw", s.bandwidth_gib_s, "GiB/s", s.valid),
                Figure::new("md", s.iops_kiops, "kIOPS", s.valid),
            ]
        }
    }
}

/// Per operation, in the order the run first did it: the highest `value` over its iterations.
fn best(
    phases: &[PhaseResult],
    keep: impl Fn(Operation) -> bool,
    value: impl Fn(&PhaseResult) -> f64,
    unit: &str,
) -> Vec<Figure> {
    let mut out: Vec<(Operation, f64)> = Vec::new();
    for p in phases.iter().filter(|p| keep(p.operation)) {
        match out.iter_mut().find(|(op, _)| *op == p.operation) {
            Some((_, v)) => *v = v.max(value(p)),
            None => out.push((p.operation, value(p))),
        }
    }
    out.into_iter()
        .map(|(op, v)| Figure::new(op.label(), v, unit, true))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::io500::{Io500Result, Io500Score};

    fn phase(op: Operation, bw: f64, iops: f64) -> PhaseResult {
        let mut p = PhaseResult::new(op, 0);
        p.bandwidth_mib_s = bw;
        p.iops = iops;
        p
    }

    #[test]
    fn ior_best_bandwidth_per_operation() {
        let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        doc.phases = vec![
            phase(Operation::Write, 100.0, 1.0),
            phase(Operation::Read, 300.0, 1.0),
            phase(Operation::Write, 150.0, 1.0),
        ];
        let h = headline(&doc);
        assert_eq!(
            h,
            [
                Figure::new("write", 150.0, "MiB/s", true),
                Figure::new("read", 300.0, "MiB/s", true)
            ]
        );
    }

    #[test]
    fn io500_scores_carry_their_validity() {
        let mut doc = RunResult::new(
            Parameters::Io500(plan::io500::Io500Params {
                version: "v".into(),
                mode: "standard".into(),
                timestamp: "t".into(),
                ranks: 1,
                data_dir: "d".into(),
                result_dir: "r".into(),
                quick: false,
                dry_run: false,
                config_hash: "0".into(),
                config: Default::default(),
            }),
            vec![],
            "x",
        );
        assert!(headline(&doc).is_empty(), "no score before the run ends");
        doc.io500 = Some(Io500Result {
            score: Some(Io500Score {
                bandwidth_gib_s: 2.0,
                iops_kiops: 8.0,
                total: 4.0,
                valid: false,
                hash: "AB".into(),
                text: ["2.000000".into(), "8.000000".into(), "4.000000".into()],
            }),
            ..Default::default()
        });
        let h = headline(&doc);
        assert_eq!(h[0], Figure::new("score", 4.0, "", false));
        assert_eq!((h[1].value, h[2].unit.as_str()), (2.0, "kIOPS"));
    }
}
