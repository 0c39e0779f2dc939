//! Self-contained HTML pages: one run ([`run_page`]) or several compared ([`compare_page`]).
//! Every script and style is inlined (uPlot, vendored under `assets/` with its MIT license),
//! so a page opens without a network. The page's data is one JSON block; its script draws each
//! chart with uPlot and marks the chart's element with `data-points` (values drawn) and
//! `data-drawn="1"`, which the browser test reads back.

mod charts;
mod compare_page;
mod observed;
mod rank_table;
mod run_page;
mod sweep_page;

use crate::summary::Field;
use charts::Chart;
use minijinja::Environment;
use serde::Serialize;

pub use charts::{Line, Style};
pub use compare_page::{compare_page, compare_page_of};
pub use run_page::run_page;
pub use sweep_page::{sweep_page, SweepFigure, SweepPage};

const UPLOT_JS: &str = include_str!("../../assets/uPlot.iife.min.js");
const UPLOT_CSS: &str = include_str!("../../assets/uPlot.min.css");
const UPLOT_LICENSE: &str = include_str!("../../assets/uPlot.LICENSE");
const REPORT_JS: &str = include_str!("../../assets/report.js");
const REPORT_CSS: &str = include_str!("../../assets/report.css");
const TEMPLATE: &str = include_str!("../../assets/report.html.j2");
/// The frame the page templates extend (`{% extends "base.html" %}`).
const BASE: &str = include_str!("../../assets/base.html.j2");

/// One table cell; `class` styles it (`num`, `bad`), `sub` is a second line (a change against
/// the baseline, a trend) styled by `sub_class` (`better`, `worse`, `same`).
#[derive(Debug, Clone, Serialize)]
struct Td {
    text: String,
    class: &'static str,
    sub: String,
    sub_class: &'static str,
}

impl Td {
    fn text(s: impl Into<String>) -> Td {
        Td::with_class(s, "")
    }

    fn num(s: impl Into<String>) -> Td {
        Td::with_class(s, "num")
    }

    fn with_class(s: impl Into<String>, class: &'static str) -> Td {
        Td {
            text: s.into(),
            class,
            sub: String::new(),
            sub_class: "",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
struct Table {
    title: String,
    note: String,
    header: Vec<String>,
    rows: Vec<Vec<Td>>,
}

impl Table {
    fn new(title: &str, header: &[&str]) -> Table {
        Table {
            title: title.to_string(),
            note: String::new(),
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }
}

/// A card of name/value facts.
#[derive(Debug, Clone, Serialize)]
struct Facts {
    title: String,
    fields: Vec<Field>,
    /// Long lists (parameters) take the page's width, three pairs a line, and scroll.
    wide: bool,
}

/// One phase: notes, chart slots, tables.
#[derive(Debug, Clone, Serialize)]
struct Section {
    title: String,
    notes: Vec<String>,
    charts: Vec<String>,
    tables: Vec<Table>,
}

#[derive(Debug, Clone, Serialize)]
struct Page {
    title: String,
    subtitle: String,
    facts: Vec<Facts>,
    warnings: Vec<String>,
    tables: Vec<Table>,
    sections: Vec<Section>,
    charts: Vec<Chart>,
}

impl Section {
    fn new(title: String) -> Section {
        Section {
            title,
            notes: Vec::new(),
            charts: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Adds the chart when it has data; the page's chart list gets its data.
    fn chart(&mut self, chart: Option<Chart>, all: &mut Vec<Chart>, missing: &str) {
        match chart {
            Some(c) => {
                self.charts.push(c.id.clone());
                all.push(c);
            }
            None if !missing.is_empty() => self.notes.push(missing.to_string()),
            None => {}
        }
    }
}

/// What every page's template is given: the page, the block its script reads, and the assets
/// it embeds.
#[derive(Serialize)]
struct Context<'a, P: Serialize> {
    page: &'a P,
    data: Data<'a>,
    /// Lists longer than this fold behind a `<details>` summary (the run page's details).
    fold_over: usize,
    version: &'static str,
    uplot_js: &'static str,
    uplot_css: &'static str,
    uplot_license: &'static str,
    report_js: &'static str,
    report_css: &'static str,
}

/// What the page's script reads.
#[derive(Serialize)]
struct Data<'a> {
    charts: &'a [Chart],
}

/// Lists longer than this fold behind a `<details>` summary.
const FOLD_OVER: usize = 12;

/// Renders `page` with the template `template` (named `name`) and every page's assets; its
/// `charts` go to the page's script.
fn render_with<P: Serialize>(name: &str, template: &str, page: &P, charts: &[Chart]) -> String {
    let mut env = Environment::new();
    env.add_template("base.html", BASE)
        .and_then(|()| env.add_template(name, template))
        .expect("the page templates parse");
    let ctx = Context {
        page,
        data: Data { charts },
        fold_over: FOLD_OVER,
        version: env!("CARGO_PKG_VERSION"),
        uplot_js: UPLOT_JS,
        uplot_css: UPLOT_CSS,
        uplot_license: UPLOT_LICENSE,
        report_js: REPORT_JS,
        report_css: REPORT_CSS,
    };
    env.get_template(name)
        .and_then(|t| t.render(&ctx))
        .expect("the page templates render any page")
}

fn render(page: &Page) -> String {
    render_with("report.html", TEMPLATE, page, &page.charts)
}
