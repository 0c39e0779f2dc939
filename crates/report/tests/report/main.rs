//! The report crate's integration tests, one binary (one link on a small machine).

mod compare;
mod docs;
mod regression;
mod render;
mod scaling;
