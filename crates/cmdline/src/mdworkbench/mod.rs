//! `iogauge md-workbench`: md-workbench's command line, parsed into an
//! [`MdWorkbenchCommand`].
//!
//! md-workbench shares IOR's option parser (`option.c`): `-P 1k`, `-P1k`, `-P=1k`; flags group
//! and count; long options `--name=value` and `--name value`. Options iogauge does not
//! provide are refused by name, never ignored. The table is in `options.rs`, the field each
//! option sets in `parse.rs`, the help text in `help.rs`; the token rules are
//! `crate::optparse`'s, the rules across options `workload::mdworkbench::validate`'s.

mod help;
pub mod options;
mod parse;

pub use crate::optparse::UsageError;
use crate::Launch;
pub use help::help_text;
pub use parse::parse;

/// A parsed `iogauge md-workbench` command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MdWorkbenchCommand {
    pub params: workload::mdworkbench::MdWorkbenchParams,
    /// `--tasks`, `--fake-nodes`, `--fake-placement`, `--json`, `--help`.
    pub launch: Launch,
    /// `--dry-run`: print the plan, no I/O.
    pub dry_run: bool,
}

#[cfg(test)]
mod tests;
