//! Renderers: every report model (run list, one run's summary, comparison, scaling table,
//! regression verdict) as a terminal table, markdown, JSON or CSV. Exporters are pure functions from the
//! model to text, so they are tested without files or a terminal.

mod compare;
pub mod csv;
mod list;
mod observed;
mod regression;
mod scaling;
mod show;
pub mod table;

pub(crate) use compare::{spread_text, COMPACT_AFTER};
use serde::Serialize;
use std::str::FromStr;
pub use table::markdown;

/// `--format table|markdown|json|csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tables for a terminal (comfy-table).
    Table,
    /// The same tables as GitHub-flavoured markdown, to paste into tickets and wikis.
    Markdown,
    /// The model as pretty JSON (serde).
    Json,
    /// Plain CSV with a header line.
    Csv,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "table" => Ok(Format::Table),
            "markdown" | "md" => Ok(Format::Markdown),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            other => Err(format!(
                "--format {other} is not a format; use table, markdown, json or csv"
            )),
        }
    }
}

/// A report model that renders in every [`Format`].
pub trait Render: Serialize {
    fn table(&self) -> String;
    fn csv(&self) -> String;
    /// The terminal tables drawn as markdown (see [`table::markdown`]): no per-model code.
    fn markdown(&self) -> String {
        markdown(|| self.table())
    }
    fn json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("report models always serialize");
        s.push('\n');
        s
    }
}

/// Renders `model` in `format`.
pub fn render<R: Render + ?Sized>(model: &R, format: Format) -> String {
    match format {
        Format::Table => model.table(),
        Format::Markdown => model.markdown(),
        Format::Json => model.json(),
        Format::Csv => model.csv(),
    }
}

/// A unit enum's serialized name (`bandwidth_mib_s`, `worse`): CSV uses the JSON form's names.
pub(crate) fn name_of<T: Serialize>(v: T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}
