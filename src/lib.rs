//! iogauge as a library: the module tree of the `iogauge` binary (`main.rs` is only its
//! `fn main`). The option parsers of the IOR-style workloads are the `cmdline` crate, which
//! the fuzz targets (`fuzz/`) link without the store, reports and servers of this one.
//!
//! The program is glue: parse the command line (`cli`), turn it into a validated plan, run it
//! on thread ranks (`world`), and hand results to the sinks. Each command lives in the directory of its tool (`ior/`, `mdtest/`, `find/`, `io500/`).

#![deny(clippy::print_stdout)]

pub mod cli;
pub mod command;
#[cfg(test)]
mod compat;
pub mod control;
pub mod dlio;
pub mod find;
pub mod fs_line;
pub mod global_opts;
pub mod io500;
pub mod ior;
pub mod launcher;
pub mod mdtest;
pub mod mdworkbench;
pub mod mix;
pub mod monitoring;
pub mod outputs;
pub mod policy;
pub mod preset;
pub mod sinks;
pub mod startup;
pub mod stdout;
pub mod stored;
pub mod storing;
pub mod sweep;
pub mod world;

/// This build's version: the result document's `tool.version` and the tools' headers.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Adds the engines of other crates to the engine table (`-a S3`, and `-a MPIIO` in the MPI
/// build), once per process, before any option is parsed: `main` calls it first, and so do
/// the tests of the parsers.
pub fn register_engines() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        s3::register();
        pio::register();
    });
}
