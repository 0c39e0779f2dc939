//! DLIO's checkpoint workload (MLPerf Storage's llama3 configs): `shards` is which files
//! each rank writes and their sizes.

pub mod shards;

pub use shards::{checkpoint_dir, Shape, Shard};
