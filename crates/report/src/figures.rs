//! `--figures bw,iops,p99`: which figures a comparison shows, by short names.

use crate::compare::{Comparison, MetricRow};
use crate::metric::Metric;

/// The short names and the figures each selects (`score`: a phase's IO500 score and the
/// `[SCORE]` rows).
const NAMES: &[(&str, &[Metric])] = &[
    ("bw", &[Metric::BandwidthMibS]),
    ("iops", &[Metric::Iops]),
    ("time", &[Metric::TimeS]),
    ("p50", &[Metric::LatencyP50Ns]),
    ("p99", &[Metric::LatencyP99Ns]),
    (
        "score",
        &[
            Metric::ScoreGibS,
            Metric::ScoreKiops,
            Metric::Io500BandwidthGibS,
            Metric::Io500IopsKiops,
            Metric::Io500Total,
        ],
    ),
];

/// The figures chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures(Vec<Metric>);

impl Figures {
    /// A comma list of short names; an unknown name is an error naming the known ones.
    pub fn parse(text: &str) -> Result<Figures, String> {
        let mut out = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some((_, metrics)) = NAMES.iter().find(|(n, _)| *n == name) else {
                return Err(format!(
                    "--figures {text}: no figure {name}; the figures are {}",
                    Figures::known()
                ));
            };
            out.extend(metrics.iter().copied());
        }
        if out.is_empty() {
            return Err(format!(
                "--figures {text}: name one figure or more of {}",
                Figures::known()
            ));
        }
        Ok(Figures(out))
    }

    /// `bw, iops, time, p50, p99 and score`.
    pub fn known() -> String {
        let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
        format!(
            "{} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        )
    }

    pub fn contains(&self, m: Metric) -> bool {
        self.0.contains(&m)
    }
}

impl Comparison {
    /// Keeps only the rows of the figures chosen; phases left without a row go.
    pub fn keep(&mut self, figures: &Figures) {
        let keep = |r: &MetricRow| figures.contains(r.metric);
        for p in &mut self.phases {
            p.rows.retain(keep);
        }
        self.phases.retain(|p| !p.rows.is_empty());
        self.io500.retain(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_select_figures_and_unknown_ones_list_the_known() {
        let f = Figures::parse("bw, p99").unwrap();
        assert!(f.contains(Metric::BandwidthMibS) && f.contains(Metric::LatencyP99Ns));
        assert!(!f.contains(Metric::Iops));
        assert!(Figures::parse("score")
            .unwrap()
            .contains(Metric::Io500Total));
        let e = Figures::parse("bw,lat").unwrap_err();
        assert!(e.contains("no figure lat") && e.contains("bw, iops, time, p50, p99 and score"));
        assert!(Figures::parse(",").is_err());
    }
}
