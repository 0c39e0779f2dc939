//! The run page's own layout: the lead (figures, verdicts, warnings), the figure tables, the
//! phases with their charts, then the run's details, its long parameter list folded. It has its
//! own template so the shared one (comparison, sweep pages) keeps its order.

use super::super::charts::Chart;
use super::super::{Facts, Section, Table};
use super::super::{REPORT_CSS, REPORT_JS, UPLOT_CSS, UPLOT_JS, UPLOT_LICENSE};
use super::lead::Lead;
use minijinja::Environment;
use serde::Serialize;

const TEMPLATE: &str = include_str!("page.html.j2");

/// Lists longer than this fold behind a `<details>` summary.
const FOLD_OVER: usize = 12;

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

#[derive(Serialize)]
struct Context<'a> {
    page: &'a Layout,
    data: Data<'a>,
    fold_over: usize,
    version: &'static str,
    uplot_js: &'static str,
    uplot_css: &'static str,
    uplot_license: &'static str,
    report_js: &'static str,
    report_css: &'static str,
}

/// What the page's script reads (the same block as the other pages).
#[derive(Serialize)]
struct Data<'a> {
    charts: &'a [Chart],
}

pub(super) fn render(page: &Layout) -> String {
    let mut env = Environment::new();
    env.add_template("run.html", TEMPLATE)
        .expect("the run page template parses");
    let ctx = Context {
        page,
        data: Data {
            charts: &page.charts,
        },
        fold_over: FOLD_OVER,
        version: env!("CARGO_PKG_VERSION"),
        uplot_js: UPLOT_JS,
        uplot_css: UPLOT_CSS,
        uplot_license: UPLOT_LICENSE,
        report_js: REPORT_JS,
        report_css: REPORT_CSS,
    };
    env.get_template("run.html")
        .and_then(|t| t.render(&ctx))
        .expect("the run page template renders any run")
}
