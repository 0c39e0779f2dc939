use super::*;
use crate::dlio::train::numpy_judge::numpy_lines;
use crate::dlio::train::params::{unet3d_like, Format, Shuffle};

fn tf_npz(files: u64, comm: u64, rank: u64, threads: u64) -> TrainParams {
    TrainParams {
        loader: Loader::Tensorflow,
        format: Format::Npz,
        num_files: files,
        batch_size: 1,
        comm_size: comm,
        rank,
        read_threads: threads,
        file_shuffle: Shuffle::Off,
        sample_shuffle: Shuffle::Off,
        ..unet3d_like()
    }
}

fn joined(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_iterative_file_list_compounds_one_numpy_shuffle_per_epoch() {
    let p = TrainParams {
        file_shuffle: Shuffle::Seed,
        ..tf_npz(37, 1, 0, 1)
    };
    let want = numpy_lines(
        "f = list(range(37))\nfor e in (1, 2, 3):\n    np.random.seed(123 + e)\n    np.random.shuffle(f)\n    print(' '.join(map(str, f)))",
    );
    let got: Vec<String> = (1..=3)
        .map(|e| joined(&iterative_file_list(&p, e)))
        .collect();
    assert_eq!(got, want);
    let fixed = TrainParams {
        seed_change_epoch: false,
        ..p
    };
    let want_fixed = numpy_lines(
        "f = list(range(37))\nfor e in (1, 2):\n    np.random.seed(123)\n    np.random.shuffle(f)\nprint(' '.join(map(str, f)))",
    );
    assert_eq!(vec![joined(&iterative_file_list(&fixed, 2))], want_fixed);
}

#[test]
fn the_torch_file_list_stays_in_name_order() {
    let p = unet3d_like();
    assert_eq!(iterative_file_list(&p, 3), (0..168).collect::<Vec<_>>());
    assert_eq!(
        index_sample(
            &TrainParams {
                samples_per_file: 4,
                ..p
            },
            9
        ),
        SampleRef {
            global: 9,
            file: 2,
            sample: 1
        }
    );
}

#[test]
fn sample_lists_are_the_rank_range_shuffled_by_numpy() {
    let p = TrainParams {
        sample_shuffle: Shuffle::Seed,
        ..tf_npz(20, 3, 1, 2)
    };
    // ceil(20/3) = 7: rank 1 holds 7..14.
    let mut files: Vec<u64> = (0..20).collect();
    let got = reconfigure(&p, 2, &mut files, &mut LegacyRandomState::seeded(0));
    let want = numpy_lines("a = np.arange(7, 14)\nnp.random.seed(125)\nnp.random.shuffle(a)\nprint(' '.join(map(str, a)))");
    assert_eq!(vec![joined(&got)], want);
}

#[test]
fn the_iterative_map_deals_contiguous_chunks_and_keeps_dlios_file_counter() {
    // 2 ranks, 4 files of 1 sample, 2 threads: rank 1 holds samples 2 and 3; its first entry
    // reads file 1 x (4/2) = 2, the counter then restarts from file 0 and reads file 1.
    let map = iterative_thread_map(&tf_npz(4, 2, 1, 2), 1);
    assert_eq!(
        map,
        vec![
            vec![SampleRef {
                global: 2,
                file: 2,
                sample: 0
            }],
            vec![SampleRef {
                global: 3,
                file: 1,
                sample: 0
            }],
        ]
    );
    // 10 samples on one rank, 4 threads: 2 per thread, the remainder wraps to threads 0 and 1.
    let p = tf_npz(10, 1, 0, 4);
    assert_eq!(iterative_thread_samples(&p, 0), vec![4, 2, 2, 2]);
    let map = iterative_thread_map(&p, 1);
    let globals: Vec<Vec<u64>> = map
        .iter()
        .map(|t| t.iter().map(|s| s.global).collect())
        .collect();
    assert_eq!(
        globals,
        vec![vec![0, 1, 8, 9], vec![2, 3], vec![4, 5], vec![6, 7]]
    );
}

#[test]
fn several_samples_per_file_advance_the_file_every_samples_per_file_entries() {
    let p = TrainParams {
        samples_per_file: 3,
        ..tf_npz(4, 1, 0, 1)
    };
    let map = iterative_thread_map(&p, 1);
    let files: Vec<u64> = map[0].iter().map(|s| s.file).collect();
    let samples: Vec<u64> = map[0].iter().map(|s| s.sample).collect();
    assert_eq!(files, vec![0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    assert_eq!(samples, vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
}

#[test]
fn a_shuffled_map_uses_the_shuffled_file_list() {
    let p = TrainParams {
        file_shuffle: Shuffle::Seed,
        ..tf_npz(6, 1, 0, 1)
    };
    let map = iterative_thread_map(&p, 2);
    let files: Vec<u64> = map[0].iter().map(|s| s.file).collect();
    assert_eq!(files, iterative_file_list(&p, 2));
}
