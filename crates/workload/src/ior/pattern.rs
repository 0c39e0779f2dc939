//! Where each transfer goes: IOR's access-pattern arithmetic as pure functions.
//!
//! N ranks, block b, transfer t, s segments, T = b/t transfers per block, and the pretend
//! rank r' = (rank + rankOffset) mod N (the rank whose data is accessed). Loops are always
//! segment-outer, transfer-inner; transfer number k of a rank is segment k / T, slot k % T.
//!
//! | layout            | sequential offset(i, j)     | file size |
//! |-------------------|-----------------------------|-----------|
//! | file per process  | i*b + j*t                   | s*b       |
//! | shared file       | i*N*b + r'*b + j*t          | N*s*b     |
//!
//! `-z` (once) shuffles transfers with a seeded permutation. iogauge differs from IOR here on
//! purpose: IOR's list swaps with `rand() % len` (not uniform) and, on a shared file, gives each
//! slot of the N*b segment window to a random rank (unequal counts, so wear-out rewrites data).
//! We permute all N*T slots of a segment with one seed and give every rank T of them, so every
//! byte is written exactly once, counts are equal, and offsets still spread over the window.
//! `-z -z` picks a uniformly random b-aligned block of the file per segment (with replacement)
//! and reads its T transfers in order, like IOR; the block choice is a hash of (seed, rank,
//! segment), so no table is needed.

use engine::cache::Strided;

use crate::rng::{mix2, Permutation};

/// How the transfers of one phase are ordered.
#[derive(Debug, Clone)]
pub enum Order {
    Sequential,
    /// `-z`: a permutation of the slots of a segment (T for file-per-process, N*T shared).
    Shuffled(Permutation),
    /// `-z -z`: random blocks out of `blocks_in_file`, hashed from `seed`.
    RandomBlocks {
        seed: u64,
        blocks_in_file: u64,
    },
}

/// The access pattern of one rank in one phase.
#[derive(Debug, Clone)]
pub struct AccessPattern {
    pub block: u64,
    pub xfer: u64,
    pub segments: u64,
    pub tasks: u64,
    pub file_per_proc: bool,
    pub pretend_rank: u64,
    pub order: Order,
}

impl AccessPattern {
    pub fn sequential(
        block: u64,
        xfer: u64,
        segments: u64,
        tasks: u64,
        fpp: bool,
        pretend_rank: u64,
    ) -> Self {
        AccessPattern {
            block,
            xfer,
            segments,
            tasks,
            file_per_proc: fpp,
            pretend_rank,
            order: Order::Sequential,
        }
    }

    /// `-z`: shuffled transfers. For a shared file every rank must pass the same `seed`; for
    /// file per process IOR seeds with `seed + r'`, and so do we.
    pub fn shuffled(mut self, seed: u64) -> Self {
        let t = self.transfers_per_block();
        self.order = if self.file_per_proc {
            Order::Shuffled(Permutation::new(t, seed.wrapping_add(self.pretend_rank)))
        } else {
            Order::Shuffled(Permutation::new(t * self.tasks, seed))
        };
        self
    }

    /// `-z -z`: random b-aligned blocks of a file of `file_size` bytes (reads only).
    pub fn random_blocks(mut self, seed: u64, file_size: u64) -> Self {
        self.order = Order::RandomBlocks {
            seed: mix2(seed, self.pretend_rank),
            blocks_in_file: file_size / self.block,
        };
        self
    }

    pub fn transfers_per_block(&self) -> u64 {
        self.block / self.xfer
    }

    /// Transfers of this rank in one full pass.
    pub fn transfers(&self) -> u64 {
        self.segments * self.transfers_per_block()
    }

    /// Byte offset of this rank's transfer number `k`; `k` wraps around after a full pass
    /// (wear-out may need more transfers than one pass holds).
    #[inline]
    pub fn offset(&self, k: u64) -> u64 {
        let per_block = self.transfers_per_block();
        let k = k % self.transfers().max(1);
        let (seg, slot) = (k / per_block, k % per_block);
        match &self.order {
            Order::Sequential => self.segment_base(seg) + self.rank_base() + slot * self.xfer,
            Order::Shuffled(perm) => {
                if self.file_per_proc {
                    seg * self.block + perm.apply(slot) * self.xfer
                } else {
                    let global = perm.apply(self.pretend_rank * per_block + slot);
                    seg * self.tasks * self.block + global * self.xfer
                }
            }
            Order::RandomBlocks {
                seed,
                blocks_in_file,
            } => {
                let block = mix2(*seed, seg) % (*blocks_in_file).max(1);
                block * self.block + slot * self.xfer
            }
        }
    }

    /// The offsets of transfers `from`, `from + 1`, ... in order: what [`offset`](Self::offset)
    /// gives, without its divisions for the sequential order (the hot loop's case).
    pub fn offsets(&self, from: u64) -> Offsets<'_> {
        let per_block = self.transfers_per_block().max(1);
        let k = from % self.transfers().max(1);
        let (seg, slot) = (k / per_block, k % per_block);
        Offsets {
            next: self.offset(from),
            k: from,
            seg,
            slot,
            per_block,
            pattern: self,
        }
    }

    /// The bytes this rank's transfers fall in: its block of every segment; with `-z` on a
    /// shared file (a segment's slots go to all ranks) every segment whole; with `-z -z`
    /// (random blocks of the file) the whole file.
    pub fn part(&self) -> Strided {
        let whole = |len| Strided::whole(0, len);
        match self.order {
            Order::RandomBlocks { blocks_in_file, .. } => whole(blocks_in_file * self.block),
            Order::Shuffled(_) if !self.file_per_proc => {
                whole(self.segments * self.tasks * self.block)
            }
            _ if self.file_per_proc => whole(self.segments * self.block),
            _ => Strided {
                first: self.rank_base(),
                len: self.block,
                stride: self.tasks * self.block,
                count: self.segments,
            },
        }
    }

    fn segment_base(&self, seg: u64) -> u64 {
        if self.file_per_proc {
            seg * self.block
        } else {
            seg * self.tasks * self.block
        }
    }

    fn rank_base(&self) -> u64 {
        if self.file_per_proc {
            0
        } else {
            self.pretend_rank * self.block
        }
    }
}

/// A cursor over a pattern's offsets (see [`AccessPattern::offsets`]).
#[derive(Debug)]
pub struct Offsets<'a> {
    pattern: &'a AccessPattern,
    /// The offset the next call returns (sequential order).
    next: u64,
    /// The transfer number the next call returns (other orders).
    k: u64,
    seg: u64,
    slot: u64,
    per_block: u64,
}

impl Offsets<'_> {
    /// The offset of the next transfer; wraps after a full pass, as `offset` does.
    #[inline]
    #[allow(clippy::should_implement_trait)] // endless, never `None`: not an Iterator
    pub fn next(&mut self) -> u64 {
        let p = self.pattern;
        if !matches!(p.order, Order::Sequential) {
            let off = p.offset(self.k);
            self.k += 1;
            return off;
        }
        let off = self.next;
        self.slot += 1;
        self.next += p.xfer;
        if self.slot == self.per_block {
            // A new block: the next segment, or the first again after a full pass.
            self.slot = 0;
            self.seg += 1;
            if self.seg == p.segments {
                self.seg = 0;
            }
            self.next = p.segment_base(self.seg) + p.rank_base();
        }
        off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Count how often each transfer-sized slot of the target range is touched by all ranks
    /// (shared file: one range; file per process: one range per rank).
    fn coverage(
        block: u64,
        xfer: u64,
        segs: u64,
        tasks: u64,
        fpp: bool,
        shuffled: Option<u64>,
    ) -> Vec<Vec<u32>> {
        let file_slots = if fpp {
            segs * block / xfer
        } else {
            tasks * segs * block / xfer
        };
        let files = if fpp { tasks } else { 1 };
        let mut hits = vec![vec![0u32; file_slots as usize]; files as usize];
        for rank in 0..tasks {
            let mut p = AccessPattern::sequential(block, xfer, segs, tasks, fpp, rank);
            if let Some(seed) = shuffled {
                p = p.shuffled(seed);
            }
            for k in 0..p.transfers() {
                let off = p.offset(k);
                assert_eq!(off % xfer, 0);
                let f = if fpp { rank as usize } else { 0 };
                hits[f][(off / xfer) as usize] += 1;
            }
        }
        hits
    }

    /// Rank `rank % tasks` in one of the three orders (sequential, `-z`, `-z -z`), 8-byte
    /// transfers.
    fn pattern(
        per_block: u64,
        segs: u64,
        tasks: u64,
        rank: u64,
        fpp: bool,
        order: u8,
        seed: u64,
    ) -> AccessPattern {
        let (xfer, block) = (8, 8 * per_block);
        let p = AccessPattern::sequential(block, xfer, segs, tasks, fpp, rank % tasks);
        match order {
            0 => p,
            1 => p.shuffled(seed),
            _ => p.random_blocks(seed, 3 * block),
        }
    }

    proptest! {
        #[test]
        fn every_byte_written_exactly_once(
            xfer_words in 1u64..8, per_block in 1u64..6, segs in 1u64..5, tasks in 1u64..6,
            fpp: bool, seed: Option<u64>,
        ) {
            let xfer = xfer_words * 8;
            for file in coverage(xfer * per_block, xfer, segs, tasks, fpp, seed) {
                prop_assert!(file.iter().all(|&h| h == 1), "{file:?}");
            }
        }

        #[test]
        fn the_cursor_gives_the_offsets_of_every_order(
            per_block in 1u64..6, segs in 1u64..5, tasks in 1u64..5, rank in 0u64..4,
            fpp: bool, order in 0u8..3, seed: u64, from in 0u64..40,
        ) {
            let p = pattern(per_block, segs, tasks, rank, fpp, order, seed);
            let mut c = p.offsets(from);
            // Past a full pass too: wear-out wraps.
            for k in from..from + 3 * p.transfers() {
                prop_assert_eq!(c.next(), p.offset(k), "transfer {}", k);
            }
        }

        #[test]
        fn shuffled_keeps_each_segment_in_its_window(per_block in 2u64..6, segs in 1u64..5, tasks in 1u64..5, seed: u64) {
            let (xfer, block) = (8, 8 * per_block);
            for rank in 0..tasks {
                let p = AccessPattern::sequential(block, xfer, segs, tasks, false, rank).shuffled(seed);
                for k in 0..p.transfers() {
                    let seg = k / per_block;
                    let off = p.offset(k);
                    prop_assert!(off >= seg * tasks * block && off < (seg + 1) * tasks * block);
                }
            }
        }

        #[test]
        fn random_blocks_stay_block_aligned_and_in_file(per_block in 1u64..5, segs in 1u64..20, blocks in 1u64..9, seed: u64, rank in 0u64..4) {
            let (xfer, block) = (4096, 4096 * per_block);
            let p = AccessPattern::sequential(block, xfer, segs, 4, true, rank).random_blocks(seed, blocks * block);
            for seg in 0..segs {
                let first = p.offset(seg * per_block);
                prop_assert_eq!(first % block, 0);
                prop_assert!(first + block <= blocks * block);
                for j in 0..per_block {
                    prop_assert_eq!(p.offset(seg * per_block + j), first + j * xfer);
                }
            }
        }

        #[test]
        fn every_transfer_lies_in_the_ranks_part(
            per_block in 1u64..6, segs in 1u64..5, tasks in 1u64..5, rank in 0u64..4,
            fpp: bool, order in 0u8..3, seed: u64,
        ) {
            let xfer = 8;
            let p = pattern(per_block, segs, tasks, rank, fpp, order, seed);
            let part = p.part();
            for k in 0..p.transfers() {
                let off = p.offset(k) - part.first;
                let (i, into) = (off / part.stride, off % part.stride);
                prop_assert!(i < part.count && into + xfer <= part.len, "transfer {} at {}", k, off);
            }
            if order == 0 {
                prop_assert_eq!(part.bytes(), p.transfers() * xfer);
            }
        }
    }

    #[test]
    fn ior_hard_layout_is_strided() {
        // t = b = 47008, shared file: rank k writes record i*N + k.
        let p = AccessPattern::sequential(47008, 47008, 3, 4, false, 2);
        assert_eq!(
            (0..3).map(|k| p.offset(k)).collect::<Vec<_>>(),
            [2 * 47008, 6 * 47008, 10 * 47008]
        );
    }

    #[test]
    fn file_per_process_is_contiguous_and_wraps() {
        let p = AccessPattern::sequential(4 << 20, 1 << 20, 2, 8, true, 5);
        assert_eq!(p.offset(0), 0);
        assert_eq!(p.offset(5), 5 << 20);
        assert_eq!(p.offset(8), 0, "wear-out wraps to the first transfer");
    }

    #[test]
    fn shared_segmented_layout() {
        let p = AccessPattern::sequential(1 << 20, 256 << 10, 2, 3, false, 1);
        // segment 0: rank 1's block starts at 1 MiB; segment 1 starts at 3 MiB + 1 MiB.
        assert_eq!(p.offset(0), 1 << 20);
        assert_eq!(p.offset(3), (1 << 20) + 3 * (256 << 10));
        assert_eq!(p.offset(4), 4 << 20);
    }
}
