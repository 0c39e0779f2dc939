//! Workloads: phases that drive engines through ranks and record what happened.
//!
//! `ior` is the IOR-compatible bandwidth benchmark: pattern math (`pattern`), task reordering
//! (`reorder`), data patterns and verification (`data`), and the phase runner (`run`).
//! `mdtest` is the mdtest-compatible metadata benchmark (tree math, names, phases).
//! `mdworkbench` is the md-workbench-compatible small-object benchmark (a FIFO of objects).
//! `find` is the parallel find with pfind's semantics (IO500's find phase).
//! `dlio` is MLPerf Storage's AI training I/O as DLIO runs it (data generation so far).
//! `startup` is an application's start: every rank reads the same tree of small files and/or one large file.
//!
//! What they share: `skeleton` (a run's ranks: start, rank bodies, the failure, the end),
//! `bracket` (the steps before a timed phase's clock), `reduce` (the one report every rank
//! sends rank 0 after a phase, its wire format and the gather), `cache`, `stop`, `session`.

mod bracket;
pub mod cache;
pub mod dlio;
mod file_kind;
pub mod find;
pub mod io500;
pub mod ior;
pub mod mdtest;
pub mod mdworkbench;
pub mod mix;
pub mod reduce;
pub mod requests;
pub mod rng;
pub mod session;
mod skeleton;
pub mod startup;
pub mod stop;
pub mod system;
pub mod target;
