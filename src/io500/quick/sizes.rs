//! The `--quick` sizing rule. The IO500's write phases end at the stonewall only when their
//! data lasts that long; the official defaults (9,920,000 MiB per rank, ...) assume a file
//! system that can hold whatever 300 s of writing produce. `--quick` cannot know the write
//! speed in advance, so it gives each phase as much data as the room allows: the whole run's
//! data at its peak stays within a part of the free space and a part of the memory. On storage
//! too fast for that room a phase runs out before the stonewall, and is invalid with the
//! IO500's own reason.
//!
//! Pure: the caller measures the room (`room.rs`), so the caps are tested without a disk.

/// The run's data may take at most half of the free space (and its files half of the free
/// inodes): the rest stays for others.
pub const FREE_PART: (u64, u64) = (1, 2);
/// ... and at most three quarters of the memory: the data passes through the page cache, and
/// where a file system has far more room than that (a parallel file system) the memory keeps a
/// quick run small. On tmpfs, whose data is memory, the free-space half is the smaller.
pub const MEMORY_PART: (u64, u64) = (3, 4);
/// The two parts in words, for the run's header.
pub const FREE_WORDS: &str = "half";
pub const MEMORY_WORDS: &str = "three quarters";

/// `num/den` of `x`, rounded down, without overflow.
pub fn part(x: u64, (num, den): (u64, u64)) -> u64 {
    x / den * num + x % den * num / den
}

/// ior-easy's transfer size in `--quick` (its block is a multiple of it).
pub const IOR_EASY_TRANSFER: u64 = 1 << 20;
/// ior-hard's transfer and block: the IO500's fixed 47008 bytes per segment.
pub const IOR_HARD_SEGMENT: u64 = 47008;
/// What an empty mdtest-easy file is charged: an inode and a directory entry, on disk and in
/// the kernel's caches (a generous estimate; it takes no data block).
pub const EMPTY_FILE_BYTES: u64 = 1024;
/// An mdtest-hard file: the same, plus its 3901 bytes in one 4 KiB block.
pub const HARD_FILE_BYTES: u64 = 4096 + EMPTY_FILE_BYTES;

/// The budget in eighths: the IOR files take most (they move the most bytes per second),
/// the mdtest files an eighth each.
const IOR_EASY_EIGHTHS: u64 = 3;
const IOR_HARD_EIGHTHS: u64 = 3;
const MDTEST_EIGHTHS: u64 = 1;

/// The least per rank whatever the room, so every phase has something to measure (a directory
/// without room even for these is refused: [`fits`]).
pub const FLOOR: Sizes = Sizes {
    budget: 0,
    ior_easy_block: 16 * IOR_EASY_TRANSFER,
    ior_hard_segments: 100,
    mdtest_easy_files: 1000,
    mdtest_hard_files: 500,
};

/// The room a run has: the data directory's free space and inodes (None where the file
/// system does not say), and the machine's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    pub free_bytes: Option<u64>,
    pub free_inodes: Option<u64>,
    pub memory_bytes: Option<u64>,
}

impl Room {
    /// The run's budget: the smaller of its parts of free space and memory, where known (0,
    /// so only the floors, when neither is).
    pub fn budget(&self) -> u64 {
        let free = self.free_bytes.map(|f| part(f, FREE_PART));
        let memory = self.memory_bytes.map(|m| part(m, MEMORY_PART));
        [free, memory].into_iter().flatten().min().unwrap_or(0)
    }
}

/// The sizes of the write phases, per rank (as the `.ini` keys take them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Bytes the whole run's data may take at its peak.
    pub budget: u64,
    /// `[ior-easy] blockSize`, bytes: a multiple of [`IOR_EASY_TRANSFER`].
    pub ior_easy_block: u64,
    /// `[ior-hard] segmentCount`.
    pub ior_hard_segments: u64,
    /// `[mdtest-easy] n`.
    pub mdtest_easy_files: u64,
    /// `[mdtest-hard] n`.
    pub mdtest_hard_files: u64,
}

/// The sizes for `ranks` ranks in `room`: each phase's share of the budget, split over the
/// ranks; the mdtest phases also within their part of the free inodes; never below [`FLOOR`].
pub fn sizes(room: &Room, ranks: usize) -> Sizes {
    let r = ranks.max(1) as u64;
    let budget = room.budget();
    let share = |eighths: u64| budget / 8 * eighths / r;
    // Each mdtest phase gets half of the files the inode budget allows.
    let files = room
        .free_inodes
        .map_or(u64::MAX, |i| part(i, FREE_PART) / 2 / r);
    let md = |charge: u64| (share(MDTEST_EIGHTHS) / charge).min(files);
    Sizes {
        budget,
        ior_easy_block: (share(IOR_EASY_EIGHTHS) / IOR_EASY_TRANSFER * IOR_EASY_TRANSFER)
            .max(FLOOR.ior_easy_block),
        ior_hard_segments: (share(IOR_HARD_EIGHTHS) / IOR_HARD_SEGMENT)
            .max(FLOOR.ior_hard_segments),
        mdtest_easy_files: md(EMPTY_FILE_BYTES).max(FLOOR.mdtest_easy_files),
        mdtest_hard_files: md(HARD_FILE_BYTES).max(FLOOR.mdtest_hard_files),
    }
}

/// Bytes the data takes at its peak (after mdtest-hard-write every phase's data is there),
/// by the charges above; saturates rather than overflows.
pub fn peak_bytes(s: &Sizes, ranks: usize) -> u64 {
    let per_rank = s
        .ior_easy_block
        .saturating_add(s.ior_hard_segments.saturating_mul(IOR_HARD_SEGMENT))
        .saturating_add(s.mdtest_easy_files.saturating_mul(EMPTY_FILE_BYTES))
        .saturating_add(s.mdtest_hard_files.saturating_mul(HARD_FILE_BYTES));
    per_rank.saturating_mul(ranks.max(1) as u64)
}

/// Whether the free space holds the peak with a quarter to spare; `Err((needed, free))` if not.
/// Only the floors can ask for more than the budget, so this refuses a nearly full directory.
pub fn fits(room: &Room, s: &Sizes, ranks: usize) -> Result<(), (u64, u64)> {
    let need = peak_bytes(s, ranks);
    match room.free_bytes {
        Some(free) if free < need.saturating_add(need / 4) => Err((need, free)),
        _ => Ok(()),
    }
}

#[cfg(test)]
#[path = "sizes_tests.rs"]
mod tests;
