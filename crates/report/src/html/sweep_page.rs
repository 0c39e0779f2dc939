//! The page of a parameter sweep: what was varied, the table over repeats, the findings, and
//! per varied parameter and figure a chart of the median against the parameter's values, one
//! line per combination of the other parameters. The sweep crate builds the model; this file
//! only lays it out.

use super::charts::{Chart, Line, Style};
use super::{render, Facts, Page, Section, Table, Td};
use crate::summary::Field;

/// One chart: a figure against one varied parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepFigure {
    pub title: String,
    /// The varied parameter.
    pub x_label: String,
    /// The figure with its unit.
    pub y_label: String,
    /// The parameter's values, in order; a line's x are indices into them.
    pub x_names: Vec<String>,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SweepPage {
    pub title: String,
    pub subtitle: String,
    pub facts: Vec<(String, String)>,
    pub header: Vec<String>,
    /// Cells as text; the columns after `text_columns` are figures (right-aligned).
    pub rows: Vec<Vec<String>>,
    pub text_columns: usize,
    pub findings: Vec<String>,
    pub figures: Vec<SweepFigure>,
}

pub fn sweep_page(p: &SweepPage) -> String {
    let header: Vec<&str> = p.header.iter().map(String::as_str).collect();
    let mut table = Table::new("The matrix", &header);
    table.note = "median [min–max] over the repeats measured".into();
    for r in &p.rows {
        table.rows.push(
            r.iter()
                .enumerate()
                .map(|(i, c)| {
                    if i < p.text_columns {
                        Td::text(c)
                    } else {
                        Td::num(c)
                    }
                })
                .collect(),
        );
    }
    let mut advice = Section::new("Findings".into());
    advice.notes = if p.findings.is_empty() {
        vec!["no findings: a parameter needs two values or more".into()]
    } else {
        p.findings.clone()
    };
    let mut charts = Vec::new();
    let mut section = Section::new("Each figure against each varied parameter".into());
    for (i, f) in p.figures.iter().enumerate() {
        let chart = Chart {
            id: format!("sweep-{i}"),
            title: f.title.clone(),
            style: Style::Lines,
            x_label: f.x_label.clone(),
            y_label: f.y_label.clone(),
            x_unit: String::new(),
            x_names: f.x_names.clone(),
            x_integer: false,
            lines: Vec::new(),
            marks: Vec::new(),
        }
        .with(f.lines.clone());
        section.chart(chart, &mut charts, "");
    }
    render(&Page {
        title: p.title.clone(),
        subtitle: p.subtitle.clone(),
        facts: vec![Facts {
            title: "Sweep".into(),
            fields: p
                .facts
                .iter()
                .map(|(name, value)| Field {
                    name: name.clone(),
                    value: value.clone(),
                })
                .collect(),
            wide: false,
        }],
        warnings: Vec::new(),
        tables: vec![table],
        sections: vec![advice, section],
        charts,
    })
}
