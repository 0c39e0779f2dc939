//! The run list.

use super::csv::{num, Csv};
use super::{table, Render};
use crate::fmt;
use crate::listing::ListedRun;
use crate::run::labels_text;

impl Render for [ListedRun] {
    fn table(&self) -> String {
        let mut t = table::new(
            &[
                "id", "when", "host", "workload", "labels", "complete", "headline",
            ],
            &[],
        );
        for r in self {
            let headline: Vec<String> = r
                .headline
                .iter()
                .map(|f| format!("{} {}", f.name, fmt::figure(f.value, &f.unit)))
                .collect();
            t.add_row(vec![
                r.id.clone(),
                r.when.clone(),
                r.host.clone(),
                r.workload.clone(),
                labels_text(&r.labels),
                fmt::completion(r.complete, r.imported_from.is_some()).to_string(),
                headline.join(", "),
            ]);
        }
        format!("{t}\n")
    }

    /// Fixed columns, then one column per headline figure (`write (MiB/s)`), in the order the
    /// runs first name them; a run without that figure leaves it empty.
    fn csv(&self) -> String {
        let mut figures: Vec<(String, String)> = Vec::new();
        for f in self.iter().flat_map(|r| &r.headline) {
            if !figures.iter().any(|(n, u)| *n == f.name && *u == f.unit) {
                figures.push((f.name.clone(), f.unit.clone()));
            }
        }
        let mut header: Vec<String> = [
            "id",
            "when",
            "host",
            "workload",
            "labels",
            "complete",
            "imported_from",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        header.extend(figures.iter().map(|(n, u)| match u.as_str() {
            "" => n.clone(),
            u => format!("{n} ({u})"),
        }));
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut c = Csv::new(&refs);
        for r in self {
            let mut row = vec![
                r.id.clone(),
                r.when.clone(),
                r.host.clone(),
                r.workload.clone(),
                labels_text(&r.labels),
                r.complete.to_string(),
                r.imported_from.clone().unwrap_or_default(),
            ];
            row.extend(figures.iter().map(|(n, u)| {
                num(r
                    .headline
                    .iter()
                    .find(|f| f.name == *n && f.unit == *u)
                    .map(|f| f.value))
            }));
            c.row(row);
        }
        c.finish()
    }
}
