//! The headline figures of a run, what a listing shows beside it: IOR's best write and read
//! bandwidth, mdtest's and find's best rates, the IO500's scores. Computed from the document
//! when it is stored, so a listing does not parse documents.

use results::{Headline, Operation, RunResult};

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

/// The run's headline figures, in the order a listing shows them: an IO500 run's scores, a
/// load ramp's knee, else per operation the best of the figure its phases are listed by
/// ([`Operation::headline`]). Read from the document alone, so a new workload needs nothing
/// here.
pub fn headline(doc: &RunResult) -> Vec<Figure> {
    if let Some(io) = &doc.io500 {
        let Some(s) = &io.score else {
            return Vec::new();
        };
        return vec![
            Figure::new("score", s.total, "", s.valid),
            Figure::new("bw", s.bandwidth_gib_s, "GiB/s", s.valid),
            Figure::new("md", s.iops_kiops, "kIOPS", s.valid),
        ];
    }
    // The knee is the figure a ramp is for; none when no step stayed within the limit.
    if let Some(m) = &doc.mix {
        let knee = m.knee.as_ref();
        return knee
            .map(|k| vec![Figure::new("knee", k.achieved_ops_s, "ops/s", true)])
            .unwrap_or_default();
    }
    let mut out: Vec<(Operation, f64)> = Vec::new();
    for p in &doc.phases {
        // Higher is better for every figure kept: a time is kept negated.
        let value = match p.operation.headline() {
            Headline::Bandwidth => p.bandwidth_mib_s,
            Headline::Rate => p.iops,
            Headline::Time => -p.times.total_s,
            Headline::None => continue,
        };
        match out.iter_mut().find(|(op, _)| *op == p.operation) {
            Some((_, v)) => *v = v.max(value),
            None => out.push((p.operation, value)),
        }
    }
    out.into_iter()
        .map(|(op, v)| match op.headline() {
            Headline::Bandwidth => Figure::new(op.label(), v, "MiB/s", true),
            Headline::Time => Figure::new(op.label(), -v, "s", true),
            _ => Figure::new(op.label(), v, "ops/s", true),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::io500::{Io500Result, Io500Score};
    use results::{Parameters, PhaseResult};

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

    #[test]
    fn rates_skip_tree_phases_and_times_keep_the_shortest() {
        let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        let mut slow = phase(Operation::TreeRead, 0.0, 0.0);
        slow.times.total_s = 3.0;
        let mut fast = phase(Operation::TreeRead, 0.0, 0.0);
        fast.times.total_s = 2.0;
        doc.phases = vec![
            phase(Operation::TreeCreate, 0.0, 9.0),
            phase(Operation::FileCreate, 0.0, 50.0),
            phase(Operation::FileCreate, 0.0, 70.0),
            slow,
            fast,
        ];
        assert_eq!(
            headline(&doc),
            [
                Figure::new("file-create", 70.0, "ops/s", true),
                Figure::new("tree-read", 2.0, "s", true)
            ]
        );
    }
}
