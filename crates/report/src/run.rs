//! A run as the reports see it: the result document plus what the store knows about it (its id
//! there, the user's labels, whether the run finished). The store is another crate; this one
//! takes the facts it needs as a plain struct so it never depends on SQLite.

use results::RunResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the store adds to a document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunInfo {
    /// The name the user gives the run (the store's id, or the document's `run_id`).
    pub id: String,
    /// The user's labels (`branch=main`, `fs=lustre`, ...).
    pub labels: BTreeMap<String, String>,
    /// False for a run that was interrupted or failed before its end.
    pub complete: bool,
    /// The file or directory an imported run was read from; `None` for a run made here.
    pub imported_from: Option<String>,
}

impl RunInfo {
    /// The facts the document itself holds: its `run_id`, no labels, and complete when it has
    /// an end time.
    pub fn of(doc: &RunResult) -> RunInfo {
        RunInfo {
            id: doc.run_id.clone(),
            labels: BTreeMap::new(),
            complete: doc.reached_end(),
            imported_from: None,
        }
    }
}

/// One run handed to a report.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    pub doc: &'a RunResult,
    pub info: &'a RunInfo,
}

impl<'a> Run<'a> {
    pub fn new(doc: &'a RunResult, info: &'a RunInfo) -> Run<'a> {
        Run { doc, info }
    }

    pub fn id(&self) -> &'a str {
        &self.info.id
    }

    /// `key=value` pairs joined by commas, empty without labels.
    pub fn labels_text(&self) -> String {
        labels_text(&self.info.labels)
    }
}

pub(crate) fn labels_text(labels: &BTreeMap<String, String>) -> String {
    labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}
