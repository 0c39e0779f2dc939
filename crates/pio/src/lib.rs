//! iogauge's engines over the parallel I/O libraries, as IOR runs them (`docs/pio.md`):
//! `-a MPIIO` through MPI-IO. MPI's own I/O needs MPI ranks, so the engines exist in the MPI
//! build only (feature `mpi`); the binary registers them at start-up ([`register`]) and a build
//! without MPI refuses their names with the reason (the engine table's refused APIs).
//!
//! `hints.rs` reads IOR's hints (environment and hints file, pure); `view.rs` is the pattern
//! math of IOR's file views; `ffi.rs` makes MPI-IO's C calls safe; `engine.rs` is the engine the
//! libraries share; `mpiio.rs` and `file.rs` open and move MPI-IO's files; `register.rs` is
//! its row of the engine table: options, checks, constructor.

pub mod hints;
pub mod view;

#[cfg(feature = "mpi")]
mod engine;
#[cfg(feature = "mpi")]
pub mod ffi;
#[cfg(feature = "mpi")]
mod file;
#[cfg(feature = "mpi")]
mod mpiio;
#[cfg(feature = "mpi")]
mod register;

/// Adds `-a MPIIO` to the engine table (MPI build; nothing otherwise). Called once by the
/// binary at start-up, before any command line is read.
pub fn register() {
    #[cfg(feature = "mpi")]
    ::engine::register(&register::MPIIO);
}
