//! The scaling table: per phase, one row per run by count.

use super::csv::{num, Csv};
use super::{name_of, table, Render};
use crate::fmt;
use crate::scaling::Scaling;

impl Render for Scaling {
    fn table(&self) -> String {
        let unit = self.by.unit();
        let mut out = String::new();
        for p in &self.phases {
            let per = format!("per {unit}");
            let mut t = table::new(
                &[&format!("{unit}s"), "run", "aggregate", &per, "efficiency"],
                &[0, 2, 3, 4],
            );
            for s in &p.points {
                t.add_row(vec![
                    s.count.to_string(),
                    s.run.clone(),
                    fmt::figure(s.aggregate, p.unit),
                    fmt::figure(s.per_unit, p.unit),
                    format!("{:.1}%", s.efficiency * 100.0),
                ]);
            }
            let title = format!("{} ({}, median over iterations)", p.phase, p.metric.label());
            table::section(&mut out, &title, &t);
        }
        out.push_str(&format!(
            "efficiency = aggregate / ({unit}s × per-{unit} figure at the smallest count)\n"
        ));
        out
    }

    fn csv(&self) -> String {
        let mut c = Csv::new(&[
            "phase",
            "metric",
            "unit",
            "by",
            "count",
            "run",
            "aggregate",
            "per_unit",
            "efficiency",
        ]);
        for p in &self.phases {
            for s in &p.points {
                c.row([
                    p.phase.clone(),
                    name_of(p.metric),
                    p.unit.to_string(),
                    name_of(self.by),
                    s.count.to_string(),
                    s.run.clone(),
                    num(Some(s.aggregate)),
                    num(Some(s.per_unit)),
                    num(Some(s.efficiency)),
                ]);
            }
        }
        c.finish()
    }
}
