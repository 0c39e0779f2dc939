//! DLIO's checkpoint workload (MLPerf Storage's llama3 configs): `shards` is which files
//! each rank writes and their sizes (pure), `io` moves one shard file, `run` times each
//! checkpoint as a phase, `tidy` removes what the run made.

mod io;
pub(crate) mod run;
pub mod shards;
mod tidy;

pub use io::TRANSFER;
pub use shards::{checkpoint_dir, recovery_source, Shape, Shard};
