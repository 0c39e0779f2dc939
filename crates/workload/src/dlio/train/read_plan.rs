//! Which byte ranges DLIO's readers read from one file, in order.
//!
//! - npz: `np.load(f)['x']` on demand, once per sample (DLIO's default `read_type`), so a
//!   file of several samples is read again for each. The zip directory reads are small; the
//!   plan is the whole file in numpy's 256 KiB pieces (`numpy.lib.format.BUFFER_SIZE`, how it
//!   reads an array out of a zip member).
//! - npz with `reader.odirect`: one O_DIRECT read of the whole file rounded up to 4 KiB.
//! - jpeg: PIL opens and decodes the whole file once per sample, in 64 KiB pieces (its decoder
//!   block).
//! - tfrecord: tf.data streams each file once through a buffer of `transfer_size` (TensorFlow's
//!   default 256 KiB); a record is available once the bytes up to its end are read. Records
//!   are taken as equal parts of the file (the generator writes equal records).

use std::ops::Range;

use super::params::{Format, TrainParams};

pub const NUMPY_PIECE: u64 = 256 * 1024;
pub const PIL_PIECE: u64 = 64 * 1024;
pub const TFRECORD_DEFAULT_BUFFER: u64 = 256 * 1024;
pub const ODIRECT_ALIGNMENT: u64 = 4096;

/// The reads of one file of `len` bytes, in order.
pub fn file_reads(p: &TrainParams, len: u64) -> Vec<Range<u64>> {
    match p.format {
        Format::Npz if p.odirect => one_read(len.div_ceil(ODIRECT_ALIGNMENT) * ODIRECT_ALIGNMENT),
        Format::Npz => pieces(len, NUMPY_PIECE),
        Format::Jpeg => pieces(len, PIL_PIECE),
        Format::Tfrecord => pieces(len, p.transfer_size.unwrap_or(TFRECORD_DEFAULT_BUFFER)),
    }
}

/// `[0, len)` in pieces of `piece` bytes (the last one shorter); one empty read for an empty file.
pub fn pieces(len: u64, piece: u64) -> Vec<Range<u64>> {
    if len == 0 {
        return one_read(0);
    }
    (0..len.div_ceil(piece))
        .map(|i| i * piece..((i + 1) * piece).min(len))
        .collect()
}

/// A single read of `[0, end)`.
fn one_read(end: u64) -> Vec<Range<u64>> {
    std::iter::once(0..end).collect()
}

/// Where record `j` of `records` equal records ends in a file of `len` bytes.
pub fn record_end(len: u64, records: u64, j: u64) -> u64 {
    ((u128::from(len) * u128::from(j + 1)).div_ceil(u128::from(records))) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlio::train::params::unet3d_like;
    use proptest::prelude::*;

    #[test]
    fn formats_read_their_own_way() {
        let npz = unet3d_like();
        assert_eq!(
            file_reads(&npz, 600_000),
            vec![0..262_144, 262_144..524_288, 524_288..600_000]
        );
        let direct = TrainParams {
            odirect: true,
            ..npz.clone()
        };
        assert_eq!(file_reads(&direct, 5000), vec![0..8192]);
        let jpeg = TrainParams {
            format: Format::Jpeg,
            ..npz.clone()
        };
        assert_eq!(file_reads(&jpeg, 70_000).len(), 2);
        let tf = TrainParams {
            format: Format::Tfrecord,
            transfer_size: Some(1000),
            ..npz
        };
        assert_eq!(file_reads(&tf, 2500), vec![0..1000, 1000..2000, 2000..2500]);
    }

    #[test]
    fn record_ends_split_the_file() {
        assert_eq!(
            (0..3).map(|j| record_end(10, 3, j)).collect::<Vec<_>>(),
            vec![4, 7, 10]
        );
    }

    proptest! {
        #[test]
        fn pieces_cover_the_file_once(len in 0u64..5_000_000, piece in 1u64..1_000_000) {
            let reads = pieces(len, piece);
            prop_assert_eq!(reads.first().unwrap().start, 0);
            prop_assert_eq!(reads.last().unwrap().end, len);
            for pair in reads.windows(2) {
                prop_assert_eq!(pair[0].end, pair[1].start);
                prop_assert!(pair[0].end - pair[0].start == piece);
            }
        }
    }
}
