//! Which sample each rank reads, per epoch, as DLIO's samplers decide (utils/config.py's
//! `reconfigure`, `build_sample_map_iter`, `get_global_map_index`; the loaders that use them).
//!
//! What DLIO (mlperf_storage_v2.0) really does, found by reading it:
//! - pytorch (index sampler): the sampler yields the rank's contiguous range in order, and the
//!   "shuffled" index map is keyed by the sample itself, so neither `sample_shuffle` nor
//!   `file_shuffle` changes what is read: files in name order, every epoch.
//! - tensorflow on TFRecord: tf.data lists the files sorted (`MatchingFiles` sorts), so
//!   `file_shuffle` has no effect either; see `tfrecord_order`.
//! - tensorflow on other formats (iterative sampler): the file list is shuffled in place each
//!   epoch (`seed + epoch`, compounding), the rank's contiguous sample range is shuffled, and the
//!   samples are dealt to reader threads in contiguous chunks. The file of an entry follows a
//!   counter that starts at `rank x files_per_rank` for the first entry and restarts from file 0
//!   for the rest; that is DLIO's behaviour and it is kept, so the same files are read.
//!
//! The random state these calls leave behind also feeds `np.random.normal` for the
//! computation time (`compute_time`), so the replay here is exact, draw for draw.

use super::numpy_rng::LegacyRandomState;
use super::params::{Loader, TrainParams};

/// One entry of a reader thread's list: the global sample, the file (index into the files
/// sorted by name) and the sample within that file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleRef {
    pub global: u64,
    pub file: u64,
    pub sample: u64,
}

/// The seed DLIO passes to `np.random.seed` in epoch `epoch` (1-based).
pub fn epoch_seed(p: &TrainParams, epoch: u64) -> u32 {
    let seed = if p.seed_change_epoch {
        p.seed + epoch
    } else {
        p.seed
    };
    u32::try_from(seed).expect("TrainParams::check bounds the seed")
}

/// Replays `reconfigure(epoch)` on DLIO's global random state: the file shuffle of the
/// iterative sampler (applied to `files`, the list as the previous epoch left it) and the
/// shuffle of the rank's sample list. Returns the shuffled sample list of the rank (in range
/// order when `sample_shuffle` is off). `rng` is left where DLIO's would be.
pub fn reconfigure(
    p: &TrainParams,
    epoch: u64,
    files: &mut [u64],
    rng: &mut LegacyRandomState,
) -> Vec<u64> {
    let seed = epoch_seed(p, epoch);
    if p.loader == Loader::Tensorflow && p.file_shuffle.is_on() {
        rng.reseed(seed);
        rng.shuffle(files);
        // file_list_eval is shuffled next; it is empty (no evaluation), so no draws.
    }
    let mut samples: Vec<u64> = p.rank_samples(p.rank).collect();
    if p.sample_shuffle.is_on() {
        rng.reseed(seed);
        rng.shuffle(&mut samples);
    }
    samples
}

/// Whether `reconfigure` seeds the global state at all. When it does not, DLIO's computation
/// time draws come from numpy's entropy-seeded start; here they start from `train.seed`.
pub fn reconfigure_seeds(p: &TrainParams) -> bool {
    p.sample_shuffle.is_on() || (p.loader == Loader::Tensorflow && p.file_shuffle.is_on())
}

/// The iterative sampler's file list in `epoch` (1-based): the name order shuffled in place
/// once per epoch so far.
pub fn iterative_file_list(p: &TrainParams, epoch: u64) -> Vec<u64> {
    let mut files: Vec<u64> = (0..p.num_files).collect();
    let mut rng = LegacyRandomState::seeded(0);
    for e in 1..=epoch {
        reconfigure(p, e, &mut files, &mut rng);
    }
    files
}

/// Samples per reader thread of DLIO's iterative map for `rank` (the same every epoch).
pub fn iterative_thread_samples(p: &TrainParams, rank: u64) -> Vec<u64> {
    let threads = p.effective_read_threads();
    let per_thread = p.samples_per_rank() / threads;
    let mut counts = vec![0u64; threads as usize];
    let local = p.rank_samples(rank);
    for index in 0..(local.end - local.start) {
        counts[((index / per_thread) % threads) as usize] += 1;
    }
    counts
}

/// DLIO's `build_sample_map_iter` for this rank in `epoch`: each reader thread's entries in
/// the order that thread reads them.
pub fn iterative_thread_map(p: &TrainParams, epoch: u64) -> Vec<Vec<SampleRef>> {
    let mut files: Vec<u64> = (0..p.num_files).collect();
    let mut rng = LegacyRandomState::seeded(0);
    let mut samples = Vec::new();
    for e in 1..=epoch {
        samples = reconfigure(p, e, &mut files, &mut rng);
    }
    let threads = p.effective_read_threads();
    let per_thread = p.samples_per_rank() / threads;
    let files_per_rank = (p.num_files / p.comm_size) % p.num_files;
    let mut map = vec![Vec::new(); threads as usize];
    let mut file_index = p.rank * files_per_rank;
    for (index, &global) in samples.iter().enumerate() {
        let index = index as u64;
        map[((index / per_thread) % threads) as usize].push(SampleRef {
            global,
            file: files[file_index as usize],
            sample: global % p.samples_per_file,
        });
        file_index = ((index + 1) / p.samples_per_file) % p.num_files;
    }
    map
}

/// The torch loader's sample: file `global / samples_per_file` in name order.
pub fn index_sample(p: &TrainParams, global: u64) -> SampleRef {
    SampleRef {
        global,
        file: global / p.samples_per_file,
        sample: global % p.samples_per_file,
    }
}

#[cfg(test)]
#[path = "order_tests.rs"]
mod tests;
