//! TFRecord under tf.data, DLIO's native pipeline (reader/tf_reader.py): the files in name order
//! (tf.data lists them sorted, so `file_shuffle` does not reach it), sharded by file
//! (`shard(ranks, rank)`: files rank, rank + ranks, ...) when there are at least as many files
//! as ranks, otherwise every rank reads every file and keeps every ranks-th record; records
//! interleaved from `read_threads` files at a time, one record from each in turn; an optional
//! shuffle buffer; batches that drop the remainder; repeated without end. Every epoch iterates
//! the pipeline afresh, so each epoch reads the same records in the same order.

use super::params::TrainParams;

/// One rank's record stream for one pass over its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TfrecordPass {
    /// Per interleave slot (one reader thread each), the files it streams, in order.
    pub slot_files: Vec<Vec<u64>>,
    /// Records each file holds.
    pub records_per_file: u64,
    /// Files in the stream; `files_in(slot, k)` is `slot_files[slot][k]`.
    pub stream_files: Vec<u64>,
    /// Interleave width.
    pub width: u64,
    /// Keep every `keep_every`-th record of the stream, starting at `keep_offset` (the record
    /// shard when files are fewer than ranks); 1 and 0 otherwise.
    pub keep_every: u64,
    pub keep_offset: u64,
}

impl TfrecordPass {
    pub fn new(p: &TrainParams) -> Self {
        let width = p.effective_read_threads();
        let (stream_files, keep_every, keep_offset): (Vec<u64>, u64, u64) =
            if p.num_files >= p.comm_size {
                (
                    (p.rank..p.num_files)
                        .step_by(p.comm_size as usize)
                        .collect(),
                    1,
                    0,
                )
            } else {
                ((0..p.num_files).collect(), p.comm_size, p.rank)
            };
        let mut slot_files = vec![Vec::new(); width as usize];
        for (k, &file) in stream_files.iter().enumerate() {
            slot_files[k % width as usize].push(file);
        }
        TfrecordPass {
            slot_files,
            records_per_file: p.samples_per_file,
            stream_files,
            width,
            keep_every,
            keep_offset,
        }
    }

    /// The position in the interleaved stream of record `record` of the `round`-th file of
    /// `slot` (files are equal, so slot s holds files s, s + width, ...).
    pub fn stream_position(&self, slot: u64, round: u64, record: u64) -> u64 {
        let files = self.stream_files.len() as u64;
        let active = (files - round * self.width).min(self.width);
        round * self.width * self.records_per_file + record * active + slot
    }

    /// Records in the stream before the record shard.
    pub fn stream_records(&self) -> u64 {
        self.stream_files.len() as u64 * self.records_per_file
    }

    /// The rank's position among its kept records, if the record is kept.
    pub fn kept_position(&self, stream_position: u64) -> Option<u64> {
        (stream_position % self.keep_every == self.keep_offset)
            .then_some(stream_position / self.keep_every)
    }

    /// Records the rank keeps per pass.
    pub fn kept_records(&self) -> u64 {
        let n = self.stream_records();
        if n <= self.keep_offset {
            0
        } else {
            (n - self.keep_offset).div_ceil(self.keep_every)
        }
    }
}

/// The batch (counted within its pass) that must wait for kept record `position`: with a shuffle
/// buffer of `buffer` records, output element k needs `buffer + k` records read. `None` for the
/// records after the last full batch (read, then dropped with the remainder).
pub fn gating_batch(position: u64, batch: u64, buffer: u64, kept: u64) -> Option<u64> {
    let lead = buffer.saturating_sub(1);
    let full_batches = kept / batch;
    let b = position.saturating_sub(lead) / batch;
    // The last full batch is complete once min(kept, lead + full x batch) records are read.
    let last_needed = (lead + full_batches * batch).min(kept);
    (full_batches > 0 && position < last_needed).then_some(b.min(full_batches - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlio::train::params::{unet3d_like, Format, Loader};

    fn tf(files: u64, spf: u64, comm: u64, rank: u64, threads: u64) -> TrainParams {
        TrainParams {
            loader: Loader::Tensorflow,
            format: Format::Tfrecord,
            num_files: files,
            samples_per_file: spf,
            comm_size: comm,
            rank,
            read_threads: threads,
            ..unet3d_like()
        }
    }

    #[test]
    fn files_are_sharded_by_stride_and_dealt_to_slots() {
        let pass = TfrecordPass::new(&tf(10, 2, 3, 1, 2));
        assert_eq!(pass.stream_files, vec![1, 4, 7]);
        assert_eq!(pass.slot_files, vec![vec![1, 7], vec![4]]);
        // Round 0: files 1 and 4 alternate records; round 1: file 7 alone.
        let order: Vec<u64> = vec![
            pass.stream_position(0, 0, 0),
            pass.stream_position(1, 0, 0),
            pass.stream_position(0, 0, 1),
            pass.stream_position(1, 0, 1),
            pass.stream_position(0, 1, 0),
            pass.stream_position(0, 1, 1),
        ];
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn fewer_files_than_ranks_shard_records() {
        let pass = TfrecordPass::new(&tf(2, 5, 4, 3, 1));
        assert_eq!(pass.stream_files, vec![0, 1]);
        assert_eq!(pass.kept_records(), 2); // positions 3 and 7 of 10
        assert_eq!(pass.kept_position(7), Some(1));
        assert_eq!(pass.kept_position(8), None);
    }

    #[test]
    fn the_shuffle_buffer_delays_each_batch_by_its_size() {
        // batch 2, no buffer: records 0-1 make batch 0, 2-3 batch 1, record 4 is the dropped rest.
        let plain: Vec<_> = (0..5).map(|r| gating_batch(r, 2, 0, 5)).collect();
        assert_eq!(plain, vec![Some(0), Some(0), Some(1), Some(1), None]);
        // buffer 3: batch 0 needs 4 records, batch 1 needs 5 (all there are).
        let shuffled: Vec<_> = (0..5).map(|r| gating_batch(r, 2, 3, 5)).collect();
        assert_eq!(shuffled, vec![Some(0), Some(0), Some(0), Some(0), Some(1)]);
    }
}
