//! `iogauge dlio`: MLPerf Storage's training workloads as DLIO (argonne-lcf/dlio_benchmark,
//! branch mlperf_storage_v2.0) runs them. `train` holds the training semantics: DLIO's sample
//! order, step accounting and the emulated data loader.

pub mod train;
