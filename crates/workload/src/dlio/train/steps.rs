//! DLIO's step accounting (main.py's training loop, statscounter.py).
//!
//! Every rank runs `floor(files x samples per file / batch / ranks)` steps per epoch (or
//! `total_training_steps` when set, a cap per epoch since the step counter restarts each epoch),
//! unless its loader runs dry first: torch drops the last partial batch of the rank's contiguous
//! range, so the last rank may hold fewer batches than the others. Each step ends with a barrier
//! (DLIO's stand-in for the allreduce) and each epoch with one more.

use super::params::{Loader, TrainParams};

/// `max_steps`: the steps one epoch holds for every rank.
pub fn max_steps(p: &TrainParams) -> u64 {
    p.max_steps()
}

/// The steps per epoch DLIO's statistics expect (`total_training_steps` when set).
pub fn steps_per_epoch(p: &TrainParams) -> u64 {
    match p.total_training_steps {
        Some(steps) => steps.min(max_steps(p)),
        None => max_steps(p),
    }
}

/// Samples per rank: `ceil(total / ranks)`; the last ranks' ranges are clipped at the end.
pub fn samples_per_rank(p: &TrainParams) -> u64 {
    p.samples_per_rank()
}

/// The global sample indices of `rank` (contiguous; empty when the clipping leaves none).
pub fn rank_samples(p: &TrainParams, rank: u64) -> std::ops::Range<u64> {
    p.rank_samples(rank)
}

/// The batches `rank`'s loader can deliver in one epoch before it runs dry.
pub fn loader_batches(p: &TrainParams, rank: u64) -> u64 {
    match p.loader {
        // drop_last=True over the rank's contiguous range.
        Loader::Pytorch => (rank_samples(p, rank).end - rank_samples(p, rank).start) / p.batch_size,
        // TFRecord: the dataset repeats (`take(total x epochs)`), so it never runs dry in an epoch.
        Loader::Tensorflow if !p.uses_iterative_map() => u64::MAX,
        // Iterative map: each reader thread pads its last partial batch, so every sample counts.
        Loader::Tensorflow => super::order::iterative_thread_samples(p, rank)
            .iter()
            .map(|n| n.div_ceil(p.batch_size))
            .sum(),
    }
}

/// The steps `rank` takes per epoch: the epoch's steps, or fewer where its loader runs dry.
pub fn rank_steps(p: &TrainParams, rank: u64) -> u64 {
    steps_per_epoch(p).min(loader_batches(p, rank))
}

/// Ranks that would take fewer steps than the others. DLIO then pairs different barriers across
/// ranks (and hangs at its end); the caller refuses such a layout or says what it does instead.
pub fn short_ranks(p: &TrainParams) -> Vec<u64> {
    let full = steps_per_epoch(p);
    (0..p.comm_size)
        .filter(|&r| rank_steps(p, r) < full)
        .collect()
}

/// The steps that count for AU: DLIO's `metric_start_step..=metric_end_step` (0-based).
pub fn metric_window(p: &TrainParams) -> std::ops::Range<u64> {
    let steps = steps_per_epoch(p);
    let start = p.metric_exclude_start_steps;
    // metric_end_step = steps - 1 - exclude_end (inclusive), so the window ends before this.
    let end = steps.saturating_sub(p.metric_exclude_end_steps);
    start.min(end)..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlio::train::params::unet3d_like;

    #[test]
    fn unet3d_168_files_batch_7_one_rank_is_24_steps() {
        let p = unet3d_like();
        assert_eq!(max_steps(&p), 24);
        assert_eq!(rank_steps(&p, 0), 24);
        assert_eq!(metric_window(&p), 1..24);
    }

    #[test]
    fn floor_over_ranks_and_the_short_last_rank() {
        // 10 samples on 4 ranks, batch 1: ceil(10/4) = 3 per rank, the last rank keeps 1.
        let p = TrainParams {
            num_files: 10,
            batch_size: 1,
            comm_size: 4,
            ..unet3d_like()
        };
        assert_eq!(max_steps(&p), 2);
        assert_eq!(
            (0..4).map(|r| rank_samples(&p, r)).collect::<Vec<_>>(),
            vec![0..3, 3..6, 6..9, 9..10]
        );
        assert_eq!(
            (0..4).map(|r| rank_steps(&p, r)).collect::<Vec<_>>(),
            vec![2, 2, 2, 1]
        );
        assert_eq!(short_ranks(&p), vec![3]);
    }

    #[test]
    fn a_clipped_rank_can_be_empty() {
        let p = TrainParams {
            num_files: 9,
            batch_size: 1,
            comm_size: 4,
            ..unet3d_like()
        };
        assert_eq!(rank_samples(&p, 3), 9..9);
        assert_eq!(rank_steps(&p, 3), 0);
    }

    #[test]
    fn total_training_steps_caps_each_epoch() {
        let p = TrainParams {
            total_training_steps: Some(5),
            ..unet3d_like()
        };
        assert_eq!(steps_per_epoch(&p), 5);
        assert_eq!(rank_steps(&p, 0), 5);
        assert!(p.check().is_ok());
        let too_many = TrainParams {
            total_training_steps: Some(25),
            ..unet3d_like()
        };
        assert!(too_many
            .check()
            .unwrap_err()
            .contains("train.total_training_steps 25"));
    }

    #[test]
    fn the_metric_window_excludes_start_and_end_steps() {
        let p = TrainParams {
            metric_exclude_start_steps: 2,
            metric_exclude_end_steps: 3,
            ..unet3d_like()
        };
        assert_eq!(metric_window(&p), 2..21);
        let tiny = TrainParams {
            num_files: 7,
            metric_exclude_start_steps: 1,
            ..unet3d_like()
        };
        assert_eq!(metric_window(&tiny), 1..1);
    }
}
