//! The workload table: the one list of workload commands, as `engine::ENGINES` is of
//! engines. `iogauge --help` and its examples, the dispatch in `main`, `runs --workload`,
//! `sweep --vary` and the global options' checks read it. Adding a workload is its own
//! folders, one [`Workload`] implementation and one row here.
//!
//! What is not here: the headline figures `runs` lists come from the document's operations
//! (`results::Operation::headline`), because the store derives them from stored documents
//! without this binary; the result model's `Parameters` is a serde enum with a variant per
//! workload.

use super::{Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::Global;

/// One row of the workload table.
pub struct WorkloadInfo {
    /// The command word: `ior`.
    pub name: &'static str,
    pub about: &'static str,
    pub args: &'static str,
    pub examples: &'static [(&'static str, &'static str)],
    /// The command: parse, check and run `args` (the words after the name); the exit status.
    pub main: fn(&[String], &Global) -> u8,
    pub supports: Supports,
    /// What `sweep --vary NAME` turns ([`Workload::knob`]).
    pub knob: fn(&str) -> Result<Knob, String>,
}

/// The row of a workload that runs through the command path.
pub const fn row<W: Workload>() -> WorkloadInfo {
    WorkloadInfo {
        name: W::NAME,
        about: W::ABOUT,
        args: W::ARGS,
        examples: W::EXAMPLES,
        main: super::run::<W>,
        supports: W::SUPPORTS,
        knob: W::knob,
    }
}

/// Every workload, in the order `iogauge --help` lists them.
pub static WORKLOADS: &[WorkloadInfo] = &[
    row::<crate::ior::Ior>(),
    row::<crate::mdtest::Mdtest>(),
    row::<crate::mdworkbench::MdWorkbench>(),
    row::<crate::mix::Mix>(),
    row::<crate::find::Find>(),
    row::<crate::startup::Startup>(),
    crate::io500::ROW,
];

/// The workload named `name`.
pub fn find(name: &str) -> Option<&'static WorkloadInfo> {
    WORKLOADS.iter().find(|w| w.name == name)
}

/// The names, for messages: `ior, mdtest, ... or io500`.
pub fn names(conjunction: &str) -> String {
    let names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
    text::join_words(&names, conjunction)
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
