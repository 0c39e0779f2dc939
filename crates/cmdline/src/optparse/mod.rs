//! IOR's option parser (`option.c`, which IOR, mdtest and md-workbench share), once for every
//! iogauge command that takes their command lines.
//!
//! Short options take `-t 1m`, `-t1m`, `-t=1m`; long ones `--name=value` and `--name value`;
//! flags group (`-wr`) and count (`-vvv`) and take explicit values (`-F=0`, negative = 0); a
//! value that looks like another option is not taken (`-o -F`) but a negative number is
//! (`-X -1`); IOR's `-O key=value[,...]` reaches options by key. Back-end module options
//! (`--posix.odirect`) come from the engine registry. Options a tool does not provide are
//! refused by name with a reason, never ignored; unknown ones are named, with the nearest
//! spelling when one is close.
//!
//! A tool brings its [`Table`] (`table.rs`), the mapping from an entry to a field of its plan
//! ([`Fields`], `fields.rs`), its cross-option rules and its help text. `tokenize.rs` applies
//! the rules, and `unknown.rs` words what it cannot place.

mod fields;
pub mod help;
mod table;
mod tokenize;
mod unknown;

use std::fmt;

pub use fields::{Fields, Given, Slot};
#[cfg(test)]
pub use table::check_unique_names;
pub use table::{
    display_refused, metadata_module_refusal, opt, refuse, spec, Arg, Origin, Refused, Spec, Table,
};

/// Bad usage: the one-line message, starting with the tool's name (`ior: `), to print before
/// exiting with status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
