//! The report crate's integration tests, one binary (one link on a small machine).

mod browser;
mod compare;
mod differs;
mod docs;
mod html;
mod observed;
mod regression;
mod render;
mod scaling;
