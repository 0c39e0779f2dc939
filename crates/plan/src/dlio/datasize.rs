//! MLPerf Storage's minimum training data set (Submission_guidelines.md, "Minimum dataset
//! size"): enough samples for 500 steps per epoch on every accelerator, and 5 times the
//! clients' memory, whichever is more, in whole files:
//!
//! files = ceil(max(500 × batch × accelerators, hosts × memory × 5 / record bytes)
//!              / samples per file)
//!
//! mlpstorage v2.0 (`calculate_training_data_size` in `mlpstorage/rules.py`) rounds each
//! term down instead, which can leave the data set just under 5 × memory or 500 steps;
//! [`DatasetSize::mlpstorage_files`] is its number, for comparison. Rounding up always meets
//! both rules, and mlpstorage's own check (`num_files_train` ≥ its number) accepts it.

use super::DlioParams;

/// Steps per epoch the data set must hold for every accelerator.
pub const STEPS_PER_EPOCH: u64 = 500;
/// The data set is at least this many times the clients' memory.
pub const HOST_MEMORY_MULTIPLIER: u64 = 5;
/// mlpstorage suggests subfolders of about this many files.
pub const FILES_PER_SUBFOLDER: u64 = 10_000;

/// The system being planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct System {
    /// Emulated accelerators across all hosts (MLPerf's `--num-accelerators`).
    pub accelerators: u64,
    /// Client hosts.
    pub hosts: u64,
    /// Memory of each host, bytes.
    pub host_memory_bytes: u64,
}

/// Which rule sets the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// 500 steps per epoch.
    Steps,
    /// 5 × the clients' memory.
    Memory,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DatasetSize {
    /// 500 × batch × accelerators.
    pub samples_by_steps: u64,
    /// hosts × memory × 5 / record bytes (a fraction of a sample is possible).
    pub samples_by_memory: f64,
    /// The minimum number of training files (`dataset.num_files_train`).
    pub files: u64,
    pub bound: Bound,
    /// files × samples per file × the mean record size.
    pub bytes: f64,
    /// What mlpstorage v2.0's `datasize` prints (each term rounded down).
    pub mlpstorage_files: u64,
    /// `dataset.num_subfolders_train` mlpstorage suggests above 10,000 files.
    pub subfolders_hint: Option<u64>,
}

/// The minimum data set of config `p` on `system`.
pub fn datasize(p: &DlioParams, system: &System) -> DatasetSize {
    let batch = u128::from(p.reader.batch_size);
    let per_file = u128::from(p.dataset.num_samples_per_file.max(1));
    let record = p.dataset.record_length_bytes;
    let samples_by_steps = u128::from(STEPS_PER_EPOCH) * batch * u128::from(system.accelerators);
    let memory = u128::from(system.hosts)
        * u128::from(system.host_memory_bytes)
        * u128::from(HOST_MEMORY_MULTIPLIER);
    let files_by_steps = samples_by_steps.div_ceil(per_file);
    let (files_by_memory, mlps_by_memory) = if record.fract() == 0.0 && record >= 1.0 {
        // A whole record size: exact integer arithmetic.
        let file_bytes = record as u128 * per_file;
        (memory.div_ceil(file_bytes), memory / file_bytes)
    } else {
        let files = memory as f64 / (record * per_file as f64);
        (files.ceil() as u128, files.floor() as u128)
    };
    let files = files_by_steps.max(files_by_memory);
    let mlpstorage_files = (samples_by_steps / per_file).max(mlps_by_memory);
    let files = clamp(files);
    DatasetSize {
        samples_by_steps: clamp(samples_by_steps),
        samples_by_memory: memory as f64 / record,
        files,
        bound: if files_by_memory > files_by_steps {
            Bound::Memory
        } else {
            Bound::Steps
        },
        bytes: files as f64 * per_file as f64 * record,
        mlpstorage_files: clamp(mlpstorage_files),
        subfolders_hint: (files > FILES_PER_SUBFOLDER).then_some(files / FILES_PER_SUBFOLDER),
    }
}

fn clamp(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlio::shipped;
    use proptest::prelude::*;

    fn params(name: &str) -> DlioParams {
        crate::dlio::load(&[name.to_string()]).unwrap().params
    }

    const GIB: u64 = 1 << 30;

    #[test]
    fn unet3d_h100_by_hand() {
        // batch 7, 1 sample per file, record 146,600,628 bytes.
        // 8 accelerators, 1 host of 128 GiB:
        //   steps:  500 × 7 × 8 = 28,000 samples = 28,000 files
        //   memory: 1 × 137,438,953,472 × 5 = 687,194,767,360 bytes
        //           / 146,600,628 = 4,687.5... → 4,688 files (mlpstorage: 4,687)
        //   → 28,000 files, set by the steps.
        let p = params("unet3d_h100");
        let sys = System {
            accelerators: 8,
            hosts: 1,
            host_memory_bytes: 128 * GIB,
        };
        let d = datasize(&p, &sys);
        assert_eq!(
            (d.samples_by_steps, d.files, d.bound),
            (28_000, 28_000, Bound::Steps)
        );
        assert_eq!(d.mlpstorage_files, 28_000);
        assert!(
            (d.samples_by_memory - 4_687.53).abs() < 0.01,
            "{}",
            d.samples_by_memory
        );
        assert_eq!(d.subfolders_hint, Some(2));
        // 2 accelerators on 4 hosts of 512 GiB:
        //   steps:  500 × 7 × 2 = 7,000
        //   memory: 4 × 549,755,813,888 × 5 = 10,995,116,277,760 / 146,600,628
        //           = 75,000.3... → 75,001 files (mlpstorage rounds down: 75,000)
        let sys = System {
            accelerators: 2,
            hosts: 4,
            host_memory_bytes: 512 * GIB,
        };
        let d = datasize(&p, &sys);
        assert_eq!(
            (d.files, d.bound, d.mlpstorage_files),
            (75_001, Bound::Memory, 75_000)
        );
        assert_eq!(d.bytes, 75_001.0 * 146_600_628.0);
    }

    #[test]
    fn resnet50_by_hand_many_samples_per_file() {
        // batch 400, 1251 samples per file, record 114,660.07 bytes.
        // 16 accelerators, 2 hosts of 256 GiB:
        //   steps:  500 × 400 × 16 = 3,200,000 samples / 1251 = 2,557.95 → 2,558 files
        //           (mlpstorage: 2,557, which holds only 3,199,707 samples: 499.95 steps)
        //   memory: 2 × 274,877,906,944 × 5 = 2,748,779,069,440 bytes
        //           / (1251 × 114,660.07 = 143,439,747.57) = 19,163.3 → 19,164 files
        let p = params("resnet50_h100");
        let sys = System {
            accelerators: 16,
            hosts: 2,
            host_memory_bytes: 256 * GIB,
        };
        let d = datasize(&p, &sys);
        assert_eq!(
            (d.files, d.bound, d.mlpstorage_files),
            (19_164, Bound::Memory, 19_163)
        );
        let small = System {
            accelerators: 16,
            hosts: 1,
            host_memory_bytes: 8 * GIB,
        };
        // memory: 8 GiB × 5 / 143,439,747.57 = 299.4 files; steps decide: 2,558.
        let d = datasize(&p, &small);
        assert_eq!(
            (d.files, d.bound, d.mlpstorage_files),
            (2_558, Bound::Steps, 2_557)
        );
        assert_eq!(d.subfolders_hint, None);
    }

    #[test]
    fn every_shipped_config_sizes() {
        for name in shipped::names() {
            let sys = System {
                accelerators: 1,
                hosts: 1,
                host_memory_bytes: GIB,
            };
            let d = datasize(&params(name), &sys);
            assert!(
                d.files >= 1 && d.files >= d.mlpstorage_files,
                "{name}: {d:?}"
            );
        }
    }

    proptest! {
        /// The rounded-up count meets both rules, and one file fewer would not.
        #[test]
        fn meets_both_rules_and_no_more(
            batch in 1u64..1000, per_file in 1u64..2000, record in 1u64..(1 << 30),
            acc in 1u64..1000, hosts in 1u64..100, mem_gib in 1u64..4096,
        ) {
            let mut p = DlioParams::default();
            p.reader.batch_size = batch;
            p.dataset.num_samples_per_file = per_file;
            p.dataset.record_length_bytes = record as f64;
            let sys = System { accelerators: acc, hosts, host_memory_bytes: mem_gib * GIB };
            let d = datasize(&p, &sys);
            let samples = |files: u64| u128::from(files) * u128::from(per_file);
            let enough = |files: u64| {
                samples(files) >= u128::from(500 * batch * acc)
                    && samples(files) * u128::from(record)
                        >= u128::from(hosts) * u128::from(mem_gib * GIB) * 5
            };
            prop_assert!(enough(d.files));
            prop_assert!(!enough(d.files - 1));
            prop_assert!(d.mlpstorage_files <= d.files && d.files - d.mlpstorage_files <= 1);
        }
    }
}
