use super::*;
use proptest::prelude::*;

/// Mean and stdev of the sample bytes of files 0..n of the train split.
fn moments(model: &SizeModel, n: u64) -> (f64, f64) {
    let sizes: Vec<f64> = (0..n)
        .map(|i| model.dims(Split::Train, i).sample_bytes() as f64)
        .collect();
    let mean = sizes.iter().sum::<f64>() / n as f64;
    let var = sizes.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (mean, var.sqrt())
}

/// The product of two independent sides D = int(N(μ, σ)) when μ ≫ σ ≥ a few bytes:
/// truncation shifts each side's mean by −½ and adds 1/12 to its variance.
fn expected_moments(model: &SizeModel) -> (f64, f64) {
    let m = model.mean_side() as f64 - 0.5;
    let v = model.side_stdev().powi(2) + 1.0 / 12.0;
    let second = m * m + v;
    (m * m, (second * second - m.powi(4)).sqrt())
}

#[test]
fn without_stdev_every_file_is_the_floor_of_the_root_squared() {
    // resnet50's record: √114660 = 338.6, so DLIO's samples are 338² = 114244 bytes.
    let model = SizeModel::new(114_660, 0, 7);
    for i in [0, 1, 99, 1 << 40] {
        assert_eq!(
            model.dims(Split::Train, i),
            Dims {
                rows: 338,
                cols: 338
            }
        );
        assert_eq!(model.dims(Split::Valid, i).sample_bytes(), 114_244);
    }
    assert_eq!(model.side_stdev(), 0.0);
}

#[test]
fn draws_are_keyed_on_seed_split_and_index() {
    let a = SizeModel::new(1 << 20, 1 << 18, 1);
    assert_eq!(a.dims(Split::Train, 5), a.dims(Split::Train, 5));
    let others = [
        a.dims(Split::Train, 6),
        a.dims(Split::Valid, 5),
        SizeModel::new(1 << 20, 1 << 18, 2).dims(Split::Train, 5),
    ];
    for other in others {
        assert_ne!(a.dims(Split::Train, 5), other);
    }
}

#[test]
fn unet3d_sizes_have_dlios_mean_and_a_stdev_of_about_s_over_root_two() {
    // unet3d_h100: record_length_bytes 146600628, stdev 68341808.
    let (l, s) = (146_600_628.0, 68_341_808.0);
    let model = SizeModel::new(l as u64, s as u64, 42);
    assert_eq!(model.mean_side(), 12107);
    let (mean, stdev) = moments(&model, 40_000);
    println!(
        "unet3d: mean {mean:.0} (L {l}), stdev {stdev:.0} = {:.3} s",
        stdev / s
    );
    assert!((mean / l - 1.0).abs() < 0.01, "mean {mean}");
    // Var = s²/2 + s⁴/(16 L²): stdev ≈ 0.717 s here.
    let want = (s * s / 2.0 + s.powi(4) / (16.0 * l * l)).sqrt();
    assert!(
        (stdev / want - 1.0).abs() < 0.03,
        "stdev {stdev}, want {want}"
    );
}

#[test]
fn a_side_is_clipped_to_one_never_zero() {
    // σ = 5000 around μ = 100: most draws fall below 1.
    let model = SizeModel::new(10_000, 1_000_000, 3);
    let dims: Vec<Dims> = (0..2000).map(|i| model.dims(Split::Train, i)).collect();
    assert!(dims.iter().all(|d| d.rows >= 1 && d.cols >= 1));
    let ones = dims.iter().filter(|d| d.rows == 1).count();
    assert!(ones > 900, "{ones} of 2000 rows clipped to 1");
}

#[test]
fn the_side_stdev_is_dlios() {
    assert_eq!(mean_side(0), 0);
    assert_eq!(mean_side(u64::MAX), 4_294_967_295);
    assert_eq!(side_stdev(0, 5), 0.0);
    assert!((side_stdev(10_000, 400) - 2.0).abs() < 1e-12);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn mean_and_stdev_of_many_draws_match_the_distribution(
        side in 60u64..20_000,
        stdev_ratio in 0.01f64..0.24,
        seed: u64,
    ) {
        let l = side * side;
        let sigma = stdev_ratio * side as f64;
        prop_assume!(sigma >= 3.0);
        let s = (sigma * 2.0 * (l as f64).sqrt()).round() as u64;
        let model = SizeModel::new(l, s, seed);
        let (mean, stdev) = moments(&model, 20_000);
        let (want_mean, want_stdev) = expected_moments(&model);
        prop_assert!((mean / want_mean - 1.0).abs() < 0.015, "mean {} want {}", mean, want_mean);
        prop_assert!((stdev / want_stdev - 1.0).abs() < 0.05, "stdev {} want {}", stdev, want_stdev);
    }
}

#[test]
fn the_largest_file_is_the_largest_draw() {
    let model = SizeModel::new(1 << 20, 1 << 19, 7);
    let (index, dims) = model.largest(Split::Train, 500).unwrap();
    let all: Vec<u64> = (0..500)
        .map(|i| model.dims(Split::Train, i).sample_bytes())
        .collect();
    assert_eq!(dims.sample_bytes(), *all.iter().max().unwrap());
    assert_eq!(model.dims(Split::Train, index), dims);
    assert!(dims.sample_bytes() > 1 << 20, "{dims:?}");
    assert_eq!(model.largest(Split::Valid, 0), None);
}
