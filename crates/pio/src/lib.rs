//! iogauge's engines over the parallel I/O libraries, as IOR runs them (`docs/pio.md`):
//! `-a MPIIO` through MPI-IO, `-a HDF5` through parallel HDF5. MPI's own I/O needs MPI ranks,
//! so the engines exist in the MPI build only (feature `mpi`; HDF5 also needs feature `hdf5`);
//! the binary registers them at start-up ([`register`]) and a build without them refuses their
//! names with the reason (the engine table's refused APIs).
//!
//! `hints.rs` reads IOR's hints (environment and hints file, pure); `view.rs` is the pattern
//! math of IOR's file views; `ffi.rs` makes MPI-IO's C calls safe; `engine.rs` is the engine
//! the libraries share; `mpiio.rs` (the library and its options) and `file.rs` open and move
//! MPI-IO's files; `register.rs` is its row of the engine table: options, checks,
//! constructor. With feature `hdf5`: `h5.rs` holds HDF5's ids, `hdf5.rs` and `h5file.rs` open
//! and move its files (IOR's datasets), `h5register.rs` is its row.

pub mod hints;
pub mod view;

#[cfg(feature = "mpi")]
mod engine;
#[cfg(feature = "mpi")]
pub mod ffi;
#[cfg(feature = "mpi")]
mod file;
#[cfg(feature = "hdf5")]
mod h5;
#[cfg(feature = "hdf5")]
mod h5file;
#[cfg(feature = "hdf5")]
mod h5register;
#[cfg(feature = "hdf5")]
mod hdf5;
#[cfg(feature = "mpi")]
mod mpiio;
#[cfg(feature = "mpi")]
mod register;

/// Adds `-a MPIIO` (MPI build) and `-a HDF5` (feature `hdf5`) to the engine table; nothing
/// in a build without MPI. Called once by the
/// binary at start-up, before any command line is read.
pub fn register() {
    #[cfg(feature = "mpi")]
    ::engine::register(&register::MPIIO);
    #[cfg(feature = "hdf5")]
    ::engine::register(&h5register::HDF5);
}
