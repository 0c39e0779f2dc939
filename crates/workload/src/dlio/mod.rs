//! `iogauge dlio`: MLPerf Storage's training workloads as DLIO runs them.
//!
//! `data` is data generation: DLIO's file names and layout, its size distribution and the bytes
//! of one npz, TFRecord or JPEG file.

pub mod data;
