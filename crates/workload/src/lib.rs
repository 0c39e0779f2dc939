//! Workloads: phases that drive engines through ranks and record what happened.
//!
//! `ior` is the IOR-compatible bandwidth benchmark: pattern math (`pattern`), task reordering
//! (`reorder`), data patterns and verification (`data`), and the phase runner (`run`).

pub mod ior;
pub mod rng;
