//! One module per top-level command.

pub mod find;
pub mod ior;
pub mod mdtest;
