//! How fast each encoder makes files, in MiB of file per second on one core. Meaningful only in
//! a release build: `cargo test --release -p workload dlio::data::speed -- --ignored --nocapture`.

use std::time::Instant;

use super::*;

fn mib_per_s(spec: GenSpec, files: u64) -> f64 {
    let mut encoder = FileEncoder::new(spec).unwrap();
    let mut out = Vec::new();
    encoder.encode(Split::Train, 0, &mut out).unwrap();
    let start = Instant::now();
    let mut bytes = 0;
    for i in 1..=files {
        bytes += encoder.encode(Split::Train, i, &mut out).unwrap().len;
    }
    bytes as f64 / start.elapsed().as_secs_f64() / (1 << 20) as f64
}

#[test]
#[ignore = "a measurement: run in release with --ignored --nocapture"]
fn encoder_speed() {
    // MLPerf Storage's shapes, scaled in count: unet3d npz, resnet50 and cosmoflow tfrecord,
    // retinanet jpeg.
    let cases = [
        (
            "npz unet3d (146.6 MB, 1 sample)",
            GenSpec {
                format: DataFormat::Npz,
                record_length: 146_600_628,
                record_length_stdev: 68_341_808,
                samples_per_file: 1,
                seed: 1,
            },
            6,
        ),
        (
            "tfrecord resnet50 (114,660 B x 1251)",
            GenSpec {
                format: DataFormat::Tfrecord,
                record_length: 114_660,
                record_length_stdev: 0,
                samples_per_file: 1251,
                seed: 1,
            },
            4,
        ),
        (
            "tfrecord cosmoflow (2.8 MB, 1 sample)",
            GenSpec {
                format: DataFormat::Tfrecord,
                record_length: 2_828_486,
                record_length_stdev: 71_311,
                samples_per_file: 1,
                seed: 1,
            },
            200,
        ),
        (
            "jpeg retinanet (322,957 B)",
            GenSpec {
                format: DataFormat::Jpeg,
                record_length: 322_957,
                record_length_stdev: 0,
                samples_per_file: 1,
                seed: 1,
            },
            1000,
        ),
    ];
    for (name, spec, files) in cases {
        println!("{name}: {:.0} MiB/s", mib_per_s(spec, files));
    }
}
