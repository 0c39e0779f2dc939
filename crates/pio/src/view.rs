//! Where IOR's MPI-IO views put a transfer (`docs/pio.md`, `--mpiio.useFileView` and
//! `--mpiio.useStridedDatatype`): pure arithmetic over the layout, so that the property
//! tests can hold it against the explicit offsets of the default mode.

use engine::IorLayout;

/// The transfer at file offset `offset` as an index into the bytes the rank's file view
/// shows, in transfers (the view's etype is one transfer): the view of a shared file shows
/// the pretend rank's block of every segment back to back, a file per process all of it.
pub fn view_index(l: &IorLayout, offset: u64) -> u64 {
    if l.file_per_proc {
        return offset / l.transfer;
    }
    let per_block = l.block / l.transfer;
    let stride = l.tasks * l.block;
    let segment = offset / stride;
    let within = offset % stride - l.pretend * l.block;
    per_block * segment + within / l.transfer
}

/// The file type's shape of a view: a 2-D subarray `{1, (b/t)·N}` of transfers of which the
/// pretend rank's `{1, b/t}` at `{0, (b/t)·p}` shows (a file per process: all of `b/t`).
/// `None` when a count does not fit MPI's `int`.
pub fn subarray(l: &IorLayout) -> Option<([i32; 2], [i32; 2], [i32; 2])> {
    let per_block = l.block / l.transfer;
    let (tasks, pretend) = if l.file_per_proc {
        (1, 0)
    } else {
        (l.tasks, l.pretend)
    };
    let int = |v: u64| i32::try_from(v).ok();
    Some((
        [1, int(per_block * tasks)?],
        [1, int(per_block)?],
        [0, int(per_block * pretend)?],
    ))
}

/// `--mpiio.useStridedDatatype`: IOR moves a transfer at `offset` only while `offset` is below
/// `(rank + 1)·b` (`rank`: the MPI rank); it then writes the transfer's bytes `s` times, one
/// at each `offset + k·stride` with `stride` = `N·b` (`b` for a file per process).
pub fn strided_moves(l: &IorLayout, rank: u64, offset: u64) -> bool {
    offset < (rank + 1) * l.block
}

/// The distance between the copies of [`strided_moves`].
pub fn strided_stride(l: &IorLayout) -> u64 {
    if l.file_per_proc {
        l.block
    } else {
        l.tasks * l.block
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The file offset of view index `index` (the inverse of [`view_index`]).
    fn view_offset(l: &IorLayout, index: u64) -> u64 {
        if l.file_per_proc {
            return index * l.transfer;
        }
        let per_block = l.block / l.transfer;
        let (segment, j) = (index / per_block, index % per_block);
        segment * l.tasks * l.block + l.pretend * l.block + j * l.transfer
    }

    fn layout(t: u64, per_block: u64, s: u64, tasks: u64, pretend: u64, fpp: bool) -> IorLayout {
        IorLayout {
            block: t * per_block,
            transfer: t,
            segments: s,
            tasks,
            pretend: pretend % tasks,
            file_per_proc: fpp,
            collective: false,
        }
    }

    #[test]
    fn shared_file_indexes() {
        // t 1 KiB, b 4 KiB, 3 ranks, rank 1: its blocks at 4 KiB and 16 KiB.
        let l = layout(1024, 4, 2, 3, 1, false);
        assert_eq!(view_index(&l, 4096), 0);
        assert_eq!(view_index(&l, 4096 + 3072), 3);
        assert_eq!(view_index(&l, 12288 + 4096), 4);
        assert_eq!(subarray(&l), Some(([1, 12], [1, 4], [0, 4])));
        let fpp = IorLayout {
            file_per_proc: true,
            ..l
        };
        assert_eq!(view_index(&fpp, 4096 + 2048), 6);
        assert_eq!(subarray(&fpp), Some(([1, 4], [1, 4], [0, 0])));
        assert_eq!(strided_stride(&l), 12288);
        assert!(strided_moves(&l, 1, 7168) && !strided_moves(&l, 1, 8192));
    }

    proptest! {
        /// Every transfer of the pretend rank's pattern has a view index, the indexes are
        /// 0, 1, 2, ... in the pattern's order, and the inverse gives the offset back.
        #[test]
        fn indexes_follow_the_pattern(
            t in 8u64..4096, per_block in 1u64..8, s in 1u64..5, tasks in 1u64..6,
            pretend in 0u64..6, fpp: bool,
        ) {
            let l = layout(t, per_block, s, tasks, pretend, fpp);
            let mut expect = 0;
            for seg in 0..s {
                for j in 0..per_block {
                    let offset = if fpp {
                        seg * l.block + j * t
                    } else {
                        seg * tasks * l.block + l.pretend * l.block + j * t
                    };
                    prop_assert_eq!(view_index(&l, offset), expect);
                    prop_assert_eq!(view_offset(&l, expect), offset);
                    expect += 1;
                }
            }
        }
    }
}
