//! DLIO's figures (MLPerf Storage training): the statistics counter's math (`stats`) and the
//! files DLIO writes, with its field names (`files`).

pub mod files;
pub mod stats;

pub use files::{
    duration_text, proc_fields, timestamp, BlockStats, EpochStats, PerEpochStats, Summary,
};
pub use stats::{
    block_figures, epoch_figures, train_metric, BlockTimes, Figures, MetricSteps, TrainMetric,
};
