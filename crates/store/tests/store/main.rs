//! The store crate's integration tests, one binary (one link on a small machine): runs stored
//! and read back, the sink, migrations of files earlier versions wrote, two writers at once.

mod common;
mod concurrent;
mod migration;
mod runs;
mod sink;
