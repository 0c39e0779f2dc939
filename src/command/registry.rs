//! The workload table: the one list of workload commands, as `engine::ENGINES` is of
//! engines. `iogauge --help` and its examples, the dispatch in `main`, `runs --workload`,
//! `sweep --vary` and the global options' checks read it. Adding a workload is its own
//! folders, one [`Workload`] implementation and one row here.
//!
//! What is not here: the headline figures `runs` lists come from the document's operations
//! (`results::Operation::headline`), because the store derives them from stored documents
//! without this binary; the result model's `Parameters` is a serde enum with a variant per
//! workload.

pub use super::{row, WorkloadInfo};
use crate::sweep::names::Knob;

/// Every workload, in the order `iogauge --help` lists them.
pub static WORKLOADS: &[WorkloadInfo] = &[
    row::<crate::ior::Ior>(),
    row::<crate::mdtest::Mdtest>(),
    row::<crate::mdworkbench::MdWorkbench>(),
    row::<crate::mix::Mix>(),
    row::<crate::find::Find>(),
    row::<crate::startup::Startup>(),
    // `dlio datasize` prints and runs nothing: its own main in front of the command path.
    WorkloadInfo {
        main: crate::dlio::main,
        ..row::<crate::dlio::Dlio>()
    },
    crate::io500::ROW,
];

/// The workload named `name`.
pub fn find(name: &str) -> Option<&'static WorkloadInfo> {
    WORKLOADS.iter().find(|w| w.name == name)
}

/// The knob `name` turns for `tool`, as the workload's row says (`sweep --vary`); Err names
/// the problem (bad usage).
pub fn knob(tool: &str, name: &str) -> Result<Knob, String> {
    match find(tool) {
        Some(w) => (w.knob)(name),
        None => Err(format!(
            "the command after -- is `{tool}`; a sweep runs {}",
            names("or")
        )),
    }
}

/// The names, for messages: `ior, mdtest, ... or io500`.
pub fn names(conjunction: &str) -> String {
    let names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
    text::join_words(&names, conjunction)
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
