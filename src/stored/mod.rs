//! The commands over the result store: `runs`, `show`, `compare`, `scaling`, `report` and
//! `import`. They read runs from the store (`crates/store`) and hand the documents to the
//! reports (`crates/report`); nothing here computes a figure.

mod import;
mod views;

use std::collections::BTreeMap;

use store::{RunId, Store, StoredRun};

use crate::world::{usage, Global};

pub use import::import;
pub use views::{compare, report, runs, scaling, show};

/// The store of the global options, for a command that reads it.
fn open(global: &Global, command: &str) -> Result<Store, u8> {
    global.storing.open().map_err(|e| usage(command, e))
}

/// The store for a command that reads runs by id (show, compare, scaling, report): a store
/// that does not exist yet holds no run, and is not created for the question.
fn open_existing(global: &Global, command: &str, ids: &[i64]) -> Result<Store, u8> {
    match global.storing.path() {
        Ok(path) if !path.exists() => Err(usage(
            command,
            format!(
                "no run {}: there is no result store at {} yet (run a benchmark or \
             iogauge import first; --db PATH names another store)",
                ids.first().copied().unwrap_or_default(),
                path.display()
            ),
        )),
        _ => open(global, command),
    }
}

/// Runs loaded by id, in the order given, with what the reports need of the store.
struct Loaded {
    runs: Vec<StoredRun>,
    infos: Vec<report::RunInfo>,
}

impl Loaded {
    fn read(store: &Store, ids: &[i64], command: &str) -> Result<Loaded, u8> {
        let mut runs = Vec::with_capacity(ids.len());
        for &id in ids {
            match store.load(RunId(id)) {
                Ok(r) => runs.push(r),
                Err(store::StoreError::NotFound(_)) => {
                    return Err(usage(
                        command,
                        format!(
                            "no run {id} in {} (iogauge runs lists them)",
                            store.path().display()
                        ),
                    ))
                }
                Err(e) => return Err(usage(command, format!("run {id}: {e}"))),
            }
        }
        let infos = runs.iter().map(info).collect();
        Ok(Loaded { runs, infos })
    }

    fn views(&self) -> Vec<report::Run<'_>> {
        self.runs
            .iter()
            .zip(&self.infos)
            .map(|(r, i)| report::Run::new(&r.doc, i))
            .collect()
    }
}

/// The store's facts about a run, as the reports take them: its id, labels and whether it
/// reached its end.
fn info(r: &StoredRun) -> report::RunInfo {
    info_of(
        r.id,
        &r.labels,
        r.complete,
        imported_from(r.source, &r.origin),
    )
}

/// Where an imported run was read from; `None` for a run stored as it ran.
fn imported_from(source: store::Source, origin: &Option<String>) -> Option<String> {
    (source != store::Source::Run).then(|| origin.clone().unwrap_or_else(|| "unknown".into()))
}

fn info_of(
    id: RunId,
    labels: &[store::Label],
    complete: bool,
    imported_from: Option<String>,
) -> report::RunInfo {
    report::RunInfo {
        id: id.0.to_string(),
        labels: labels
            .iter()
            .map(|l| (l.key.clone(), l.value.clone()))
            .collect::<BTreeMap<_, _>>(),
        complete,
        imported_from,
    }
}
