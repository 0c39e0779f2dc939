//! DLIO's figures (MLPerf Storage training): the statistics counter's math (`stats`) and the
//! files DLIO writes, with its field names (`files`); what a run measures (`outcome`) and its
//! place in the result document (`document`).

pub mod checkpoint;
pub mod document;
pub mod files;
pub mod outcome;
pub mod stats;

pub use checkpoint::{
    checkpoint_entry, checkpoint_metric, checkpoint_result, CheckpointFigures, CheckpointMetric,
    CheckpointOutcome, CheckpointRank, Direction, CHECKPOINT_KINDS,
};
pub use document::{dlio_result, epoch_entry, phase_result, summaries, DlioResult, EpochFigures};
pub use files::{
    duration_text, proc_fields, timestamp, BlockStats, CheckpointStats, EpochEntry, EpochStats,
    PerEpochStats, RankEpoch, RankOutput, Summary, SummaryMetric,
};
pub use outcome::{
    EpochOutcome, EpochRank, GenerateOutcome, GenerateRank, PhaseOutcome, EPOCH_KINDS,
    GENERATE_KINDS,
};
pub use stats::{
    block_figures, epoch_figures, train_metric, BlockTimes, Figures, MetricSteps, TrainMetric,
};
