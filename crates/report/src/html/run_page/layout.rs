//! The run page's own layout: the lead (figures, verdicts, warnings), the figure tables, the
//! phases with their charts, then the run's details, its long parameter list folded. It has its
//! own template so the shared one (comparison, sweep pages) keeps its order.

use super::super::charts::Chart;
use super::super::{Facts, Section, Table};
use super::lead::Lead;
use serde::Serialize;

const TEMPLATE: &str = include_str!("page.html.j2");

#[derive(Serialize)]
pub(super) struct Layout {
    pub title: String,
    pub subtitle: String,
    pub lead: Lead,
    pub tables: Vec<Table>,
    pub sections: Vec<Section>,
    pub details: Vec<Facts>,
    pub charts: Vec<Chart>,
}

pub(super) fn render(page: &Layout) -> String {
    super::super::render_with("run.html", TEMPLATE, page, &page.charts)
}
