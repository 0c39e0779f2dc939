use super::*;
use proptest::prelude::*;

const METRIC: MetricSteps = MetricSteps {
    expected: 4,
    exclude_start: 1,
    exclude_end: 0,
};

#[test]
fn a_hand_worked_block() {
    // 4 steps of 1 s compute; the first waited 3 s, the others 0.5 s; block 9 s (barriers 0.5 s).
    let compute = [1.0, 1.0, 1.0, 1.0];
    let proc = [4.0, 1.5, 1.5, 1.5];
    let f = block_figures(
        BlockTimes {
            seconds: 9.0,
            compute: &compute,
            proc: &proc,
        },
        METRIC,
        7,
    );
    // AU = 3 / (9 - 4) = 60 %; samples/s = (4 - 2) / 5 x 7 = 2.8.
    assert!((f.au_percent - 60.0).abs() < 1e-12);
    assert!((f.samples_per_second - 2.8).abs() < 1e-12);
}

#[test]
fn excluded_end_steps_leave_the_window_and_the_time() {
    let compute = [1.0, 1.0, 1.0, 1.0];
    let proc = [2.0, 1.0, 1.0, 3.0];
    let metric = MetricSteps {
        exclude_end: 1,
        ..METRIC
    };
    let f = block_figures(
        BlockTimes {
            seconds: 7.0,
            compute: &compute,
            proc: &proc,
        },
        metric,
        1,
    );
    // compute of steps 1..=2 = 2; time = 7 - 2 - 3 = 2.
    assert!((f.au_percent - 100.0).abs() < 1e-12);
}

#[test]
fn python_slices_count_negative_ends_from_the_back() {
    assert_eq!(py_slice(5, 1, -1), 1..4);
    assert_eq!(py_slice(5, 3, 1), 3..3);
    assert_eq!(py_slice(2, 1, 10), 1..2);
}

#[test]
fn epochs_weight_blocks_by_steps_and_ranks_fold_as_dlio() {
    let e = epoch_figures(&[
        (
            Figures {
                au_percent: 90.0,
                samples_per_second: 10.0,
            },
            3,
        ),
        (
            Figures {
                au_percent: 50.0,
                samples_per_second: 20.0,
            },
            1,
        ),
    ]);
    assert_eq!(
        e,
        Figures {
            au_percent: 80.0,
            samples_per_second: 12.5
        }
    );
    let f = |au, sps| Figures {
        au_percent: au,
        samples_per_second: sps,
    };
    let ranks = vec![
        vec![f(90.0, 10.0), f(94.0, 12.0)],
        vec![f(80.0, 10.0), f(92.0, 12.0)],
    ];
    let m = train_metric(&ranks, 0.9, 1024.0 * 1024.0 * 2.0);
    assert_eq!(m.train_au_percentage, vec![85.0, 93.0]);
    assert_eq!(m.train_au_mean_percentage, 89.0);
    assert_eq!(m.train_au_stdev_percentage, 4.0);
    assert_eq!(m.train_au_meet_expectation, "fail");
    assert_eq!(m.train_throughput_samples_per_second, vec![20.0, 24.0]);
    assert_eq!(m.train_throughput_mean_samples_per_second, 22.0);
    assert_eq!(m.train_io_mean_mb_per_second, 44.0);
    assert_eq!(m.train_io_stdev_mb_per_second, 4.0);
    let json = serde_json::to_string(&m).unwrap();
    assert!(
        json.contains("\"train_io_mean_MB_per_second\":44.0"),
        "{json}"
    );
    assert!(train_metric(&ranks, 0.89, 1.0).train_au_meet_expectation == "success");
}

proptest! {
    #[test]
    fn au_stays_within_0_and_100(
        steps in 3usize..40,
        compute in 0.0f64..2.0,
        waits in proptest::collection::vec(0.0f64..3.0, 40),
        barrier in 0.0f64..0.5,
    ) {
        let c = vec![compute; steps];
        let proc: Vec<f64> = (0..steps).map(|i| waits[i] + compute).collect();
        let seconds = proc.iter().sum::<f64>() + barrier * steps as f64;
        let metric = MetricSteps { expected: steps as u64, exclude_start: 1, exclude_end: 0 };
        let f = block_figures(BlockTimes { seconds, compute: &c, proc: &proc }, metric, 4);
        prop_assert!(f.au_percent >= 0.0 && f.au_percent <= 100.0 + 1e-9, "{}", f.au_percent);
    }

    #[test]
    fn au_is_near_100_when_compute_dominates(steps in 3usize..40, compute in 1.0f64..5.0, wait in 0.0f64..0.001) {
        let c = vec![compute; steps];
        let proc = vec![compute + wait; steps];
        let seconds = proc.iter().sum::<f64>();
        let metric = MetricSteps { expected: steps as u64, exclude_start: 1, exclude_end: 0 };
        let f = block_figures(BlockTimes { seconds, compute: &c, proc: &proc }, metric, 1);
        prop_assert!(f.au_percent > 99.9);
    }
}
