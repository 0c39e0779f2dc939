//! `iogauge dlio`: MLPerf Storage's training workloads as DLIO (argonne-lcf/dlio_benchmark,
//! branch mlperf_storage_v2.0) runs them.
//!
//! `data` is data generation: DLIO's file names and layout, its size distribution and the bytes
//! of one npz, TFRecord or JPEG file. `train` holds the training semantics: DLIO's sample
//! order, step accounting and the emulated data loader.

pub mod data;
pub mod train;
