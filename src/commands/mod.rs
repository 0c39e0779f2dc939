//! One module per top-level command.

pub mod find;
pub mod io500;
pub mod ior;
pub mod mdtest;
mod outputs;
