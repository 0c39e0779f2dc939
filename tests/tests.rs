//! One integration-test binary (one link on two cores): modules per workload, each running the
//! real `iogauge` binary on temporary directories.

mod bad_input;
mod common;
mod dlio;
mod events;
mod faults;
mod find;
mod global_options;
mod golden;
mod io500;
mod ior;
mod marks;
mod mdtest;
mod mdworkbench;
mod mix;
mod monitoring;
#[cfg(feature = "mpi")]
mod mpi;
mod preset;
mod s3;
mod safety;
mod startup;
mod store;
mod sweep;
mod system;
mod values;
mod warnings;
