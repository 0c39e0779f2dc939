//! One epoch of one rank as work for reader threads and batch boundaries for the training
//! thread: which files each thread visits, in order, which byte ranges it reads there, which
//! batch each read must wait for (prefetch) and which batch it completes.
//!
//! The loaders, as DLIO configures them:
//! - pytorch: batch k of the rank's range goes to worker `k % read_threads` (torch deals index
//!   batches round robin); each sample is its own file visit; `read_threads x prefetch_factor`
//!   batches may be in work ahead of the training thread, `prefetch_factor =
//!   ceil(prefetch_size / read_threads)` or torch's 2 when that is 0. `read_threads = 0`: the
//!   training thread reads each batch itself when it needs it.
//! - tensorflow, iterative map: each reader thread turns its list into batches (the last one
//!   padded with samples that are not read) and the threads' batches are interleaved round
//!   robin; `prefetch_size` batches buffered plus one in work per thread.
//! - tensorflow, TFRecord: `tfrecord_order`; the same window as the iterative map.
//!
//! Only the batches the epoch consumes are read; DLIO's loaders may read a little beyond the
//! epoch's last step into their prefetch buffers and throw it away.

use std::ops::Range;

use super::order::{index_sample, iterative_thread_map, SampleRef};
use super::params::{Loader, TrainParams};
use super::read_plan::{file_reads, record_end};
use super::steps::{rank_samples, rank_steps};
use super::tfrecord_order::{gating_batch, TfrecordPass};

/// Samples of `batch` that become available when a read completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    pub batch: u32,
    pub samples: u32,
}

/// One read of a file visit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedRead {
    pub range: Range<u64>,
    /// The read may start once the training thread has taken batch `gate - window` (prefetch).
    pub gate: u32,
    pub releases: Vec<Release>,
}

/// A reader's visit to one file: open, these reads in order, close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visit {
    pub file: u64,
    pub reads: Vec<PlannedRead>,
}

/// One rank's epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochSchedule {
    /// Per reader thread, its visits in order. With `inline`, one list the training thread runs.
    pub threads: Vec<Vec<Visit>>,
    pub inline: bool,
    /// Samples each step's batch waits for (padding excluded); its length is the rank's steps.
    pub batch_needs: Vec<u32>,
    /// Batches that may be read ahead of the training thread.
    pub window: u32,
    /// Samples DLIO counts per step (the batch size, padded batches included).
    pub samples_per_step: u64,
}

impl EpochSchedule {
    pub fn steps(&self) -> u64 {
        self.batch_needs.len() as u64
    }
}

/// The schedule of `p.rank` in `epoch` (1-based); `file_len` gives each file's size in bytes.
pub fn epoch_schedule(
    p: &TrainParams,
    epoch: u64,
    file_len: &dyn Fn(u64) -> u64,
) -> Result<EpochSchedule, String> {
    p.check()?;
    let steps = rank_steps(p, p.rank);
    let threads = p.effective_read_threads();
    let mut schedule = EpochSchedule {
        threads: vec![Vec::new(); threads.max(1) as usize],
        inline: threads == 0,
        batch_needs: vec![0; steps as usize],
        window: 0,
        samples_per_step: p.batch_size,
    };
    match p.loader {
        Loader::Pytorch => {
            let factor = match p.prefetch_size.div_ceil(threads.max(1)) {
                0 => 2,
                f => f,
            };
            schedule.window = (threads.max(1) * factor) as u32;
            let first = rank_samples(p, p.rank).start;
            for batch in 0..steps {
                let worker = if threads == 0 { 0 } else { batch % threads } as usize;
                for i in 0..p.batch_size {
                    let sample = index_sample(p, first + batch * p.batch_size + i);
                    schedule.threads[worker].push(sample_visit(p, sample, batch as u32, file_len));
                }
            }
        }
        Loader::Tensorflow if p.uses_iterative_map() => {
            schedule.window = (p.prefetch_size + threads) as u32;
            let map = iterative_thread_map(p, epoch);
            let mut round = 0usize;
            let mut next_batch = 0u64;
            while next_batch < steps {
                let mut any = false;
                for (thread, entries) in map.iter().enumerate() {
                    let chunk = entries.chunks(p.batch_size as usize).nth(round);
                    let Some(chunk) = chunk else { continue };
                    any = true;
                    if next_batch < steps {
                        for &sample in chunk {
                            schedule.threads[thread].push(sample_visit(
                                p,
                                sample,
                                next_batch as u32,
                                file_len,
                            ));
                        }
                        next_batch += 1;
                    }
                }
                if !any {
                    break;
                }
                round += 1;
            }
        }
        Loader::Tensorflow => {
            schedule.window = (p.prefetch_size + threads) as u32;
            tfrecord_visits(p, steps, file_len, &mut schedule)?;
        }
    }
    for visit in schedule.threads.iter().flatten() {
        for read in &visit.reads {
            for release in &read.releases {
                schedule.batch_needs[release.batch as usize] += release.samples;
            }
        }
    }
    Ok(schedule)
}

/// One sample read as its own file visit (npz and jpeg readers open the file per sample).
fn sample_visit(
    p: &TrainParams,
    sample: SampleRef,
    batch: u32,
    file_len: &dyn Fn(u64) -> u64,
) -> Visit {
    let ranges = file_reads(p, file_len(sample.file));
    let last = ranges.len() - 1;
    let reads = ranges
        .into_iter()
        .enumerate()
        .map(|(i, range)| PlannedRead {
            range,
            gate: batch,
            releases: if i == last {
                vec![Release { batch, samples: 1 }]
            } else {
                Vec::new()
            },
        })
        .collect();
    Visit {
        file: sample.file,
        reads,
    }
}

fn tfrecord_visits(
    p: &TrainParams,
    steps: u64,
    file_len: &dyn Fn(u64) -> u64,
    schedule: &mut EpochSchedule,
) -> Result<(), String> {
    let pass = TfrecordPass::new(p);
    let kept = pass.kept_records();
    let per_pass = kept / p.batch_size;
    if per_pass == 0 {
        return Err(format!(
            "rank {} holds {kept} records, less than one batch of {}: tf.data would repeat empty passes forever",
            p.rank, p.batch_size
        ));
    }
    let buffer = if p.sample_shuffle.is_on() {
        p.shuffle_size
    } else {
        0
    };
    let records = pass.records_per_file;
    for q in 0..steps.div_ceil(per_pass) {
        for (slot, files) in pass.slot_files.iter().enumerate() {
            for (round, &file) in files.iter().enumerate() {
                let len = file_len(file);
                // Per record: the batch it gates and whether it counts for this rank.
                let gates: Vec<(u64, bool)> = (0..records)
                    .map(|j| {
                        let position = pass.stream_position(slot as u64, round as u64, j);
                        let kept_at = pass.kept_position(position);
                        let index = kept_at.unwrap_or(position / pass.keep_every);
                        match gating_batch(index, p.batch_size, buffer, kept) {
                            Some(b) => (q * per_pass + b, kept_at.is_some()),
                            None => ((q + 1) * per_pass, false),
                        }
                    })
                    .collect();
                let mut reads = Vec::new();
                // Records before `done` completed in earlier reads; the next one gates this read.
                let mut done = 0u64;
                for range in file_reads(p, len) {
                    let gate = gates.get(done as usize).map_or(u64::MAX, |g| g.0);
                    if gate >= steps {
                        break;
                    }
                    let mut releases: Vec<Release> = Vec::new();
                    while done < records && record_end(len, records, done) <= range.end {
                        let (batch, counts) = gates[done as usize];
                        if counts && batch < steps {
                            match releases.last_mut() {
                                Some(last) if last.batch == batch as u32 => last.samples += 1,
                                _ => releases.push(Release {
                                    batch: batch as u32,
                                    samples: 1,
                                }),
                            }
                        }
                        done += 1;
                    }
                    reads.push(PlannedRead {
                        range,
                        gate: gate as u32,
                        releases,
                    });
                }
                if !reads.is_empty() {
                    schedule.threads[slot].push(Visit { file, reads });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
