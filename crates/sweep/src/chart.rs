//! The sweep's HTML page: the table, the findings and, per varied parameter and figure, the
//! median against the parameter's values with one line per combination of the others.

use report::html::{Line, SweepFigure, SweepPage};

use crate::advice::Finding;
use crate::table::Matrix;

/// The page's model; `facts` are the name/value lines of its head (sweep id, command, ...).
pub fn sweep_charts(
    title: &str,
    facts: Vec<(String, String)>,
    m: &Matrix,
    findings: &[Finding],
) -> SweepPage {
    let mut header: Vec<String> = m.axes.iter().map(|a| a.name.clone()).collect();
    header.push("runs".into());
    header.extend(
        m.columns
            .iter()
            .map(|c| format!("{} {}", c.name, c.unit).trim().to_string()),
    );
    let rows = m.row_texts();
    let mut figures = Vec::new();
    for (a, axis) in m.axes.iter().enumerate() {
        for (c, col) in m.columns.iter().enumerate() {
            let mut lines: Vec<Line> = Vec::new();
            for r in &m.rows {
                let Some(s) = r.cells[c] else { continue };
                let others: Vec<String> = m
                    .axes
                    .iter()
                    .zip(&r.values)
                    .enumerate()
                    .filter(|(i, _)| *i != a)
                    .map(|(_, (ax, v))| format!("{}={v}", ax.name))
                    .collect();
                let label = if others.is_empty() {
                    col.name.clone()
                } else {
                    others.join(" ")
                };
                let x = axis
                    .values
                    .iter()
                    .position(|v| *v == r.values[a])
                    .unwrap_or(0) as f64;
                match lines.iter_mut().find(|l| l.label == label) {
                    Some(l) => {
                        l.x.push(x);
                        l.y.push(s.median);
                    }
                    None => lines.push(Line {
                        label,
                        x: vec![x],
                        y: vec![s.median],
                    }),
                }
            }
            let y_label = format!("{} {}", col.name, col.unit).trim().to_string();
            figures.push(SweepFigure {
                title: format!("{y_label} against {} (median of the repeats)", axis.name),
                x_label: axis.name.clone(),
                y_label,
                x_names: axis.values.clone(),
                lines,
            });
        }
    }
    SweepPage {
        title: title.to_string(),
        subtitle: m
            .axes
            .iter()
            .map(|a| format!("{}={}", a.name, a.values.join(",")))
            .collect::<Vec<_>>()
            .join(" · "),
        facts,
        header,
        rows,
        text_columns: m.axes.len() + 1,
        findings: findings.iter().map(|f| f.text.clone()).collect(),
        figures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Sample;
    use crate::values::Axis;

    #[test]
    fn one_line_per_other_value() {
        let axes = [
            Axis {
                name: "tasks".into(),
                values: vec!["1".into(), "2".into()],
            },
            Axis {
                name: "t".into(),
                values: vec!["4k".into(), "1m".into()],
            },
        ];
        let mut samples = Vec::new();
        for (i, (tasks, t)) in [("1", "4k"), ("2", "4k"), ("1", "1m"), ("2", "1m")]
            .iter()
            .enumerate()
        {
            samples.push(Sample {
                values: vec![tasks.to_string(), t.to_string()],
                repeat: 1,
                run: i as i64,
                figures: vec![("write".into(), "MiB/s".into(), i as f64 + 1.0)],
            });
        }
        let m = Matrix::build(&axes, 1, &samples);
        let page = sweep_charts("s", vec![], &m, &[]);
        assert_eq!(page.figures.len(), 2);
        let by_tasks = &page.figures[0];
        assert_eq!(by_tasks.x_label, "tasks");
        let labels: Vec<&str> = by_tasks.lines.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels, ["t=4k", "t=1m"]);
        assert_eq!(by_tasks.lines[1].y, [3.0, 4.0]);
        assert_eq!(by_tasks.lines[1].x, [0.0, 1.0]);
        let html = report::html::sweep_page(&page);
        assert!(html.contains("data-chart=\"sweep-1\""));
    }
}
