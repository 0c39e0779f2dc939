//! The sweep's table: one row per combination of the varied values, one column per headline
//! figure (each phase's best rate, as `iogauge runs` shows), with min, median and max over
//! the repeats that were measured.

use serde::Serialize;

use crate::matrix::expand;
use crate::stats::Stats;
use crate::values::Axis;

/// One stored point: its values (in the axes' order), which repeat, its run and its headline
/// figures as (name, unit, value).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub values: Vec<String>,
    pub repeat: u32,
    pub run: i64,
    pub figures: Vec<(String, String, f64)>,
}

/// A headline figure: `write` in `MiB/s`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Column {
    pub name: String,
    pub unit: String,
}

/// One combination.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub values: Vec<String>,
    /// Per column; None where no repeat measured the figure.
    pub cells: Vec<Option<Stats>>,
    /// The stored runs behind the row.
    pub runs: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matrix {
    pub axes: Vec<Axis>,
    pub repeats: u32,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

impl Matrix {
    /// The rows in the plan's order (the first axis varies slowest, whatever order the points
    /// ran in); a combination without a sample has empty cells.
    pub fn build(axes: &[Axis], repeats: u32, samples: &[Sample]) -> Matrix {
        let mut columns: Vec<Column> = Vec::new();
        for (name, unit, _) in samples.iter().flat_map(|s| &s.figures) {
            if !columns.iter().any(|c| &c.name == name) {
                columns.push(Column {
                    name: name.clone(),
                    unit: unit.clone(),
                });
            }
        }
        let rows = expand(axes, 1)
            .into_iter()
            .map(|p| {
                let mine: Vec<&Sample> = samples.iter().filter(|s| s.values == p.values).collect();
                let cells = columns
                    .iter()
                    .map(|c| {
                        let v: Vec<f64> = mine
                            .iter()
                            .flat_map(|s| &s.figures)
                            .filter(|(n, _, _)| *n == c.name)
                            .map(|(_, _, v)| *v)
                            .collect();
                        Stats::of(&v)
                    })
                    .collect();
                Row {
                    values: p.values,
                    cells,
                    runs: mine.iter().map(|s| s.run).collect(),
                }
            })
            .collect();
        Matrix {
            axes: axes.to_vec(),
            repeats,
            columns,
            rows,
        }
    }

    /// Combinations with fewer measured repeats than planned.
    pub fn incomplete(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.runs.len() < self.repeats as usize)
            .count()
    }

    /// Each row as text: its values, `runs/repeats` and one cell per column (the table's and
    /// the HTML page's rows).
    pub(crate) fn row_texts(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|r| {
                let mut line = r.values.clone();
                line.push(format!("{}/{}", r.runs.len(), self.repeats));
                line.extend(
                    r.cells
                        .iter()
                        .zip(&self.columns)
                        .map(|(s, c)| cell_text(s, &c.unit)),
                );
                line
            })
            .collect()
    }

    fn header(&self) -> Vec<String> {
        let mut h: Vec<String> = self.axes.iter().map(|a| a.name.clone()).collect();
        h.push("runs".into());
        h.extend(self.columns.iter().map(|c| {
            let unit = if c.unit.is_empty() {
                String::new()
            } else {
                format!(" {}", c.unit)
            };
            format!("{}{unit}\nmedian [min–max]", c.name)
        }));
        h
    }
}

/// `1234 [1200–1250]`; one repeat: the value alone.
fn cell_text(s: &Option<Stats>, unit: &str) -> String {
    let n = |v| value_text(v, unit);
    match s {
        None => "–".into(),
        Some(s) if s.n == 1 => n(s.median),
        Some(s) => format!("{} [{}–{}]", n(s.median), n(s.min), n(s.max)),
    }
}

/// A value without its unit (the column's header names it), except a time of seconds below
/// one second, in the unit that fits (`200.0 µs`), so a short start-up does not read `0.0002`.
pub(crate) fn value_text(v: f64, unit: &str) -> String {
    if unit == "s" && v.abs() < 1.0 {
        report::fmt::figure(v, unit)
    } else {
        report::fmt::number(v)
    }
}

impl report::Render for Matrix {
    fn table(&self) -> String {
        // Through the report crate's helper, so `--format markdown` draws it too.
        let header = self.header();
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let right = report::table::from(self.axes.len(), refs.len());
        let mut t = report::table::new(&refs, &right);
        for line in self.row_texts() {
            t.add_row(line);
        }
        let mut out = t.to_string();
        out.push('\n');
        let missing = self.incomplete();
        if missing > 0 {
            out.push_str(&format!(
                "{missing} of {} combinations have fewer than {} measured repeats\n",
                self.rows.len(),
                self.repeats
            ));
        }
        out
    }

    /// One line per combination and figure: the values, then name, unit, n, min, median, max.
    fn csv(&self) -> String {
        let mut header: Vec<&str> = self.axes.iter().map(|a| a.name.as_str()).collect();
        header.extend(["figure", "unit", "n", "min", "median", "max"]);
        let mut csv = report::Csv::new(&header);
        for r in &self.rows {
            for (c, s) in self.columns.iter().zip(&r.cells) {
                let Some(s) = s else { continue };
                let mut line: Vec<String> = r.values.clone();
                line.extend([c.name.clone(), c.unit.clone(), s.n.to_string()]);
                line.extend([s.min, s.median, s.max].map(|v| v.to_string()));
                csv.row(line);
            }
        }
        csv.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use report::Render;

    pub(crate) fn axis(name: &str, values: &[&str]) -> Axis {
        Axis {
            name: name.into(),
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn sample(values: &[&str], repeat: u32, write: f64) -> Sample {
        Sample {
            values: values.iter().map(|s| s.to_string()).collect(),
            repeat,
            run: repeat as i64,
            figures: vec![("write".into(), "MiB/s".into(), write)],
        }
    }

    #[test]
    fn rows_in_plan_order_with_stats_over_repeats() {
        let axes = [axis("tasks", &["1", "2"])];
        let m = Matrix::build(
            &axes,
            3,
            &[
                sample(&["2"], 1, 300.0),
                sample(&["1"], 1, 100.0),
                sample(&["1"], 2, 120.0),
                sample(&["1"], 3, 110.0),
            ],
        );
        assert_eq!(m.rows[0].values, ["1"]);
        let s = m.rows[0].cells[0].unwrap();
        assert_eq!((s.min, s.median, s.max, s.n), (100.0, 110.0, 120.0, 3));
        assert_eq!(m.rows[1].cells[0].unwrap().n, 1);
        assert_eq!(m.incomplete(), 1);
        let t = m.table();
        assert!(t.contains("110.0 [100.0–120.0]"), "{t}");
        assert!(t.contains("1 of 2 combinations have fewer than 3"), "{t}");
        let csv = m.csv();
        assert!(
            csv.starts_with("tasks,figure,unit,n,min,median,max\n"),
            "{csv}"
        );
        assert!(csv.contains("\n1,write,MiB/s,3,100,110,120\n"), "{csv}");
    }
}
