//! Parameter sweeps (`docs/sweep.md`): the values a `--vary` names, the matrix of runs they
//! expand to, the table of headline figures over repeats, and the advice read from it.
//!
//! Everything here is pure: the command (`src/sweep/` of the binary) runs the points and
//! stores them; this crate turns specifications into plans and stored figures into tables,
//! findings and chart data, so each step is tested on crafted input.

mod accelerators;
mod advice;
mod chart;
mod matrix;
mod ramp;
mod stats;
mod table;
mod values;

pub use accelerators::{most_accelerators, AuPoint};
pub use advice::{advise, Finding, Kind, DEFAULT_THRESHOLD_PERCENT};
pub use chart::sweep_charts;
pub use matrix::{expand, shuffle, Point};
pub use ramp::{knee_finding, RampKnee};
pub use stats::Stats;
pub use table::{Column, Matrix, Row, Sample};
pub use values::{numeric, parse_vary, Axis};
