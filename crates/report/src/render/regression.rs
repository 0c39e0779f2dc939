//! The regression verdict: every phase both runs have, the slower ones marked.

use super::csv::{num, Csv};
use super::{name_of, table, Render};
use crate::fmt;
use crate::regression::RegressionCheck;

impl Render for RegressionCheck {
    fn table(&self) -> String {
        let mut t = table::new(
            &[
                "phase",
                "figure",
                &self.baseline,
                &self.candidate,
                "slower by",
                "verdict",
            ],
            &[2, 3, 4],
        );
        for p in &self.phases {
            t.add_row(vec![
                p.phase.clone(),
                p.metric.label().to_string(),
                fmt::figure(p.baseline, p.unit),
                fmt::figure(p.candidate, p.unit),
                format!("{:.1}%", p.slower_percent),
                if p.regressed { "REGRESSION" } else { "ok" }.to_string(),
            ]);
        }
        let mut out = String::new();
        table::section(
            &mut out,
            &format!(
                "Regression check: {} against {} (threshold {}% slower)",
                self.candidate, self.baseline, self.threshold_percent
            ),
            &t,
        );
        for m in &self.missing {
            out.push_str(&format!("{m}: not in {}\n", self.candidate));
        }
        let n = self.regressions().count();
        out.push_str(&match n {
            0 => "passed: no phase is slower than the threshold\n".to_string(),
            n => format!("failed: {n} phase(s) slower than the threshold\n"),
        });
        out
    }

    fn csv(&self) -> String {
        let mut c = Csv::new(&[
            "phase",
            "metric",
            "unit",
            "baseline",
            "candidate",
            "slower_percent",
            "regressed",
        ]);
        for p in &self.phases {
            c.row([
                p.phase.clone(),
                name_of(p.metric),
                p.unit.to_string(),
                num(Some(p.baseline)),
                num(Some(p.candidate)),
                num(Some(p.slower_percent)),
                p.regressed.to_string(),
            ]);
        }
        c.finish()
    }
}
