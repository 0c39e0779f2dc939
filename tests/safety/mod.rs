//! Issue 18's safety guarantees, tested on the real binary: deletion safety, interrupts,
//! a full file system, results integrity.

#[cfg(feature = "mpi")]
mod dead_rank;
mod deletion;
pub(crate) mod full_fs;
mod integrity;
mod interrupts;
mod interrupts_dlio;
mod interrupts_find;
mod interrupts_io500;
mod interrupts_startup_mix;
#[cfg(feature = "mpi")]
mod mpi_interrupt;
pub(crate) mod signal;
mod validity;
