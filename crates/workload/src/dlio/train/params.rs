//! The plain inputs of DLIO's training semantics, one rank's view. The YAML config (another
//! part) resolves into this; nothing here knows about YAML keys except for naming them in the
//! messages of `check`.

/// `reader.data_loader`: which framework's loader DLIO would use (emulated, none linked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loader {
    /// torch DataLoader: DLIO's index sampler, `read_threads` worker processes.
    Pytorch,
    /// tf.data: DLIO's iterative sampler, or the native TFRecord pipeline for `tfrecord`.
    Tensorflow,
}

/// `dataset.format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Npz,
    Tfrecord,
    Jpeg,
}

/// `reader.file_shuffle` / `reader.sample_shuffle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shuffle {
    Off,
    /// Shuffled from `train.seed` (and the epoch when `seed_change_epoch`).
    Seed,
    /// DLIO's sample maps reseed from `train.seed` for `random` too; only tf.data's own
    /// shuffle buffer is unseeded then.
    Random,
}

impl Shuffle {
    pub fn is_on(self) -> bool {
        self != Shuffle::Off
    }

    /// What DLIO (mlperf_storage_v2.0) does with a `reader.file_shuffle` value: it keeps the raw
    /// string and compares it with the enum, so any value that is present, `off` included,
    /// shuffles. Only an absent key leaves the files in order.
    pub fn file_shuffle_as_dlio(value: Option<&str>) -> Shuffle {
        match value {
            None => Shuffle::Off,
            Some("random") => Shuffle::Random,
            Some(_) => Shuffle::Seed,
        }
    }
}

/// `train.computation_time` (+ `computation_time_stdev`, or a dict with `type`), in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ComputeTime {
    Fixed(f64),
    /// `np.random.normal(mean, stdev)` per step, absolute value taken as DLIO does.
    Normal {
        mean: f64,
        stdev: f64,
    },
    /// `np.random.uniform(min, max)` per step.
    Uniform {
        min: f64,
        max: f64,
    },
}

/// One rank's training parameters, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainParams {
    pub loader: Loader,
    pub format: Format,
    /// `dataset.num_files_train`: the files found, sorted by name (index = position).
    pub num_files: u64,
    pub samples_per_file: u64,
    pub batch_size: u64,
    /// Ranks (emulated accelerators) and this rank.
    pub comm_size: u64,
    pub rank: u64,
    /// `reader.read_threads`; 0 reads on the training thread (pytorch; tf.data makes it 1).
    pub read_threads: u64,
    /// `reader.prefetch_size` (batches).
    pub prefetch_size: u64,
    pub file_shuffle: Shuffle,
    pub sample_shuffle: Shuffle,
    /// `reader.shuffle_size`: tf.data's shuffle buffer (records).
    pub shuffle_size: u64,
    /// `reader.transfer_size`: tf.data's TFRecord read buffer; `None` is TensorFlow's 256 KiB.
    pub transfer_size: Option<u64>,
    /// `reader.odirect`: npz files read with O_DIRECT in one aligned read.
    pub odirect: bool,
    pub seed: u64,
    pub seed_change_epoch: bool,
    pub epochs: u64,
    /// `train.total_training_steps`: a cap on the steps of each epoch; `None` = DLIO's -1.
    pub total_training_steps: Option<u64>,
    pub computation_time: ComputeTime,
    pub metric_exclude_start_steps: u64,
    pub metric_exclude_end_steps: u64,
}

impl TrainParams {
    /// Reader threads as the loader runs them: tf.data turns 0 into 1, torch reads inline.
    pub fn effective_read_threads(&self) -> u64 {
        match self.loader {
            Loader::Tensorflow => self.read_threads.max(1),
            Loader::Pytorch => self.read_threads,
        }
    }

    /// Samples in the training set.
    pub fn total_samples(&self) -> u64 {
        self.num_files * self.samples_per_file
    }

    /// DLIO's samples per rank: ceil(samples / ranks), ranks taking contiguous ranges.
    pub fn samples_per_rank(&self) -> u64 {
        self.total_samples().div_ceil(self.comm_size)
    }

    /// `rank`'s contiguous range of the epoch's samples (the last ones clipped to the total).
    pub fn rank_samples(&self, rank: u64) -> std::ops::Range<u64> {
        let (per, total) = (self.samples_per_rank(), self.total_samples());
        (per * rank).min(total)..(per * (rank + 1)).min(total)
    }

    /// DLIO's steps per epoch from the data set: floor(samples / (batch × ranks)).
    pub fn max_steps(&self) -> u64 {
        self.total_samples() / (self.batch_size * self.comm_size)
    }

    /// The combinations DLIO cannot run (it crashes, hangs or exits), as messages that name the
    /// key; callers turn them into exit code 2 before any I/O.
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            ("dataset.num_files_train", self.num_files),
            ("dataset.num_samples_per_file", self.samples_per_file),
            ("reader.batch_size", self.batch_size),
            ("train.epochs", self.epochs),
        ];
        for (key, value) in positive {
            if value == 0 {
                return Err(format!("{key} is 0; it must be at least 1"));
            }
        }
        if self.comm_size == 0 || self.rank >= self.comm_size {
            return Err(format!(
                "rank {} is not below the {} ranks",
                self.rank, self.comm_size
            ));
        }
        if self.format == Format::Tfrecord && self.loader == Loader::Pytorch {
            return Err("reader.data_loader pytorch cannot read dataset.format tfrecord (DLIO refuses it too)".into());
        }
        if self.odirect && self.format != Format::Npz {
            return Err(
                "reader.odirect is supported for dataset.format npz only (as in DLIO)".into(),
            );
        }
        if self.transfer_size == Some(0) {
            return Err("reader.transfer_size is 0; it must be at least 1 byte".into());
        }
        let last_seed = self.seed
            + if self.seed_change_epoch {
                self.epochs + 1
            } else {
                0
            };
        if last_seed > u64::from(u32::MAX) {
            return Err(format!(
                "train.seed {} plus the epoch number exceeds numpy's seed range (2^32 - 1)",
                self.seed
            ));
        }
        let steps = self.max_steps();
        if steps == 0 {
            return Err(format!(
                "{} files x {} samples per file give less than one batch of {} per rank for {} ranks: no training step",
                self.num_files, self.samples_per_file, self.batch_size, self.comm_size
            ));
        }
        if let Some(wanted) = self.total_training_steps {
            if wanted > steps {
                return Err(format!(
                    "train.total_training_steps {wanted} exceeds the {steps} steps the data set holds per epoch"
                ));
            }
        }
        if self.uses_iterative_map() {
            let per_rank = self.total_samples().div_ceil(self.comm_size);
            let threads = self.effective_read_threads();
            if per_rank < threads {
                return Err(format!(
                    "reader.read_threads {threads} exceeds the {per_rank} samples per rank (DLIO divides by zero here)"
                ));
            }
        }
        match self.computation_time {
            ComputeTime::Fixed(t) if !t.is_finite() => {
                Err("train.computation_time is not a number".into())
            }
            ComputeTime::Normal { mean, stdev }
                if !(mean.is_finite() && stdev >= 0.0 && stdev.is_finite()) =>
            {
                Err("train.computation_time_stdev must be a finite number at least 0".into())
            }
            ComputeTime::Uniform { min, max }
                if !(min.is_finite() && max.is_finite() && min <= max) =>
            {
                Err("train.computation_time's uniform min must not exceed max".into())
            }
            _ => Ok(()),
        }
    }

    /// DLIO's iterative sampler with its per-thread sample map: tf.data on other formats than
    /// TFRecord (TFRecord under tf.data is TensorFlow's own pipeline).
    pub fn uses_iterative_map(&self) -> bool {
        self.loader == Loader::Tensorflow && self.format != Format::Tfrecord
    }
}

#[cfg(test)]
pub(crate) fn unet3d_like() -> TrainParams {
    TrainParams {
        loader: Loader::Pytorch,
        format: Format::Npz,
        num_files: 168,
        samples_per_file: 1,
        batch_size: 7,
        comm_size: 1,
        rank: 0,
        read_threads: 4,
        prefetch_size: 2,
        file_shuffle: Shuffle::Seed,
        sample_shuffle: Shuffle::Seed,
        shuffle_size: 1024,
        transfer_size: None,
        odirect: false,
        seed: 123,
        seed_change_epoch: true,
        epochs: 5,
        total_training_steps: None,
        computation_time: ComputeTime::Fixed(0.323),
        metric_exclude_start_steps: 1,
        metric_exclude_end_steps: 0,
    }
}
