//! `iogauge mix`: the command line, parsed into a [`MixCommand`]. The table is in
//! `options.rs`, the field each option sets in `parse.rs`, the help text in `help.rs`; the
//! token rules are `crate::optparse`'s, the rules across options `workload::mix::validate`'s.

mod help;
pub mod mixfile;
pub mod options;
mod parse;

pub use crate::optparse::UsageError;
use crate::Launch;
pub use help::help_text;
pub use parse::parse;

/// A parsed `iogauge mix` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MixCommand {
    pub params: plan::mix::MixParams,
    /// `--dry-run`: the plan, no I/O.
    pub dry_run: bool,
    /// `--tasks`, `--fake-nodes`, `--fake-placement`, `--json`, `--help`.
    pub launch: Launch,
}
