use super::*;
use crate::dlio::train::params::{unet3d_like, Format, Shuffle};
use crate::dlio::train::steps::rank_steps;

fn files_read(s: &EpochSchedule) -> Vec<Vec<u64>> {
    s.threads
        .iter()
        .map(|t| t.iter().map(|v| v.file).collect())
        .collect()
}

#[test]
fn torch_deals_batches_round_robin_over_workers() {
    let p = TrainParams {
        num_files: 12,
        batch_size: 2,
        read_threads: 2,
        prefetch_size: 3,
        ..unet3d_like()
    };
    let s = epoch_schedule(&p, 1, &|_| 1000).unwrap();
    assert_eq!(
        files_read(&s),
        vec![vec![0, 1, 4, 5, 8, 9], vec![2, 3, 6, 7, 10, 11]]
    );
    assert_eq!(s.batch_needs, vec![2; 6]);
    assert_eq!(s.window, 4); // 2 workers x ceil(3 / 2)
    assert!(s.threads[0][2].reads.iter().all(|r| r.gate == 2));
}

#[test]
fn torch_reads_the_rank_range_whole_batches_only() {
    // 10 files, 3 ranks, batch 2: rank 2 holds 8..10, one step; max_steps = 1.
    let p = TrainParams {
        num_files: 10,
        batch_size: 2,
        comm_size: 3,
        rank: 2,
        read_threads: 0,
        ..unet3d_like()
    };
    let s = epoch_schedule(&p, 1, &|_| 10).unwrap();
    assert!(s.inline);
    assert_eq!(files_read(&s), vec![vec![8, 9]]);
    assert_eq!(s.steps(), rank_steps(&p, 2));
}

#[test]
fn npz_samples_of_one_file_each_read_the_whole_file() {
    let p = TrainParams {
        num_files: 2,
        samples_per_file: 3,
        batch_size: 3,
        read_threads: 1,
        ..unet3d_like()
    };
    let s = epoch_schedule(&p, 1, &|_| 600_000).unwrap();
    assert_eq!(files_read(&s), vec![vec![0, 0, 0, 1, 1, 1]]);
    assert!(s.threads[0]
        .iter()
        .all(|v| v.reads.len() == 3 && v.reads[2].releases.len() == 1));
}

#[test]
fn tf_iterative_interleaves_thread_batches_and_pads_the_last() {
    // 10 samples, 4 threads, dealt in chunks of 2: [0,1,8,9], [2,3], [4,5], [6,7].
    let p = TrainParams {
        loader: Loader::Tensorflow,
        format: Format::Jpeg,
        num_files: 10,
        batch_size: 3,
        read_threads: 4,
        file_shuffle: Shuffle::Off,
        sample_shuffle: Shuffle::Off,
        ..unet3d_like()
    };
    let s = epoch_schedule(&p, 1, &|_| 100).unwrap();
    // max_steps = 3: batches t0[0,1,8], t1[2,3 + pad], t2[4,5 + pad].
    assert_eq!(s.batch_needs, vec![3, 2, 2]);
    assert_eq!(
        files_read(&s),
        vec![vec![0, 1, 8], vec![2, 3], vec![4, 5], vec![]]
    );
}

#[test]
fn tfrecord_streams_each_file_once_and_releases_records_per_batch() {
    let p = TrainParams {
        loader: Loader::Tensorflow,
        format: Format::Tfrecord,
        num_files: 4,
        samples_per_file: 4,
        batch_size: 4,
        read_threads: 2,
        transfer_size: Some(100),
        sample_shuffle: Shuffle::Off,
        ..unet3d_like()
    };
    // 16 records, 4 steps; slots stream files 0,2 and 1,3; 400-byte files in 4 reads.
    let s = epoch_schedule(&p, 1, &|_| 400).unwrap();
    assert_eq!(files_read(&s), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(s.batch_needs, vec![4; 4]);
    let gates: Vec<u32> = s.threads[0][0].reads.iter().map(|r| r.gate).collect();
    // Records of files 0 and 1 alternate: file 0's records 0,1 are in batch 0, 2,3 in batch 1.
    assert_eq!(gates, vec![0, 0, 1, 1]);
    let total: u64 = s
        .threads
        .iter()
        .flatten()
        .flat_map(|v| &v.reads)
        .map(|r| r.range.end - r.range.start)
        .sum();
    assert_eq!(total, 1600);
}

#[test]
fn tfrecord_repeats_passes_when_the_shard_is_short() {
    // 5 files of 1 record on 4 ranks, batch 1: max_steps 1; rank 0 holds files 0 and 4.
    let p = TrainParams {
        loader: Loader::Tensorflow,
        format: Format::Tfrecord,
        num_files: 5,
        batch_size: 1,
        comm_size: 4,
        read_threads: 1,
        sample_shuffle: Shuffle::Off,
        ..unet3d_like()
    };
    let s = epoch_schedule(&p, 1, &|_| 10).unwrap();
    assert_eq!(files_read(&s), vec![vec![0]]);
    let rank3 = epoch_schedule(
        &TrainParams {
            rank: 3,
            total_training_steps: None,
            ..p
        },
        1,
        &|_| 10,
    )
    .unwrap();
    assert_eq!(files_read(&rank3), vec![vec![3]]);
}

#[test]
fn bad_layouts_are_refused_with_the_key() {
    let p = TrainParams {
        batch_size: 0,
        ..unet3d_like()
    };
    assert!(epoch_schedule(&p, 1, &|_| 1)
        .unwrap_err()
        .contains("reader.batch_size"));
    let tf_torch = TrainParams {
        format: Format::Tfrecord,
        ..unet3d_like()
    };
    assert!(epoch_schedule(&tf_torch, 1, &|_| 1)
        .unwrap_err()
        .contains("tfrecord"));
}
