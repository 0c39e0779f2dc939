//! `iogauge dlio`: MLPerf Storage's training workloads as DLIO (argonne-lcf/dlio_benchmark,
//! branch mlperf_storage_v2.0) runs them.
//!
//! `data` is data generation: DLIO's file names and layout, its size distribution and the bytes
//! of one npz, TFRecord or JPEG file. `train` holds the training semantics: DLIO's sample
//! order, step accounting and the emulated data loader. `config` maps a DLIO config onto
//! both; `run` is the run on the rank skeleton (`run_generate`: the generation as a write
//! phase; `run_epoch`: an epoch; `run_source`: the training files as the loader's source).

pub mod checkpoint;
pub mod config;
pub mod data;
mod error;
mod run;
mod run_ctx;
mod run_epoch;
mod run_generate;
mod run_source;
pub mod train;

pub use error::DlioError;
pub use run::{epoch_counts, run};
