//! md-workbench's names and its FIFO of objects (`def_dset_name`, `def_obj_name`,
//! `run_benchmark`): data set `d` of rank `r` is `<o>/<r>_<d>`, object `i` in it
//! `<o>/<r>_<d>/file-<i>`. In data set `d` a rank reads (stats, reads, deletes) the oldest
//! objects of the rank `-O * (d + 1)` below it and appends to the set of the rank as far
//! above it, so every set keeps `-P` objects and moves on by `-I` per iteration.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `<o>/<rank>_<set>`.
pub fn set_dir(prefix: &Path, rank: u64, set: u64) -> PathBuf {
    prefix.join(format!("{rank}_{set}"))
}

/// The rank whose objects `rank` reads in data set `set`.
pub fn read_rank(rank: u64, offset: u64, set: u64, ranks: u64) -> u64 {
    let shift = shift(offset, set, ranks);
    (rank + ranks - shift) % ranks
}

/// The rank in whose data set `set` `rank` creates objects.
pub fn write_rank(rank: u64, offset: u64, set: u64, ranks: u64) -> u64 {
    (rank + shift(offset, set, ranks)) % ranks
}

/// `-O * (set + 1)` modulo the ranks, without overflow.
fn shift(offset: u64, set: u64, ranks: u64) -> u64 {
    let m = u128::from(ranks.max(1));
    ((u128::from(offset) % m) * ((u128::from(set) + 1) % m) % m) as u64
}

/// The number stamped into an object's data (md-workbench's `f * D + d`).
pub fn item(index: u64, set: u64, sets: u64) -> u64 {
    index.wrapping_mul(sets).wrapping_add(set)
}

/// Object paths, formatted into one reused buffer (no allocation per operation).
pub struct Names {
    buf: String,
    prefix_len: usize,
}

impl Names {
    pub fn new(prefix: &Path) -> Names {
        let mut buf = prefix.display().to_string();
        if !buf.ends_with('/') {
            buf.push('/');
        }
        let prefix_len = buf.len();
        // Room for `<rank>_<set>/file-<index>` without growing.
        buf.reserve(64);
        Names { buf, prefix_len }
    }

    /// `<o>/<rank>_<set>/file-<index>`.
    pub fn object(&mut self, rank: u64, set: u64, index: u64) -> &Path {
        self.buf.truncate(self.prefix_len);
        let _ = write!(self.buf, "{rank}_{set}/file-{index}");
        Path::new(&self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_md_workbench() {
        let p = Path::new("/x/out");
        assert_eq!(set_dir(p, 3, 7), Path::new("/x/out/3_7"));
        let mut n = Names::new(p);
        assert_eq!(n.object(1, 2, 4005), Path::new("/x/out/1_2/file-4005"));
        assert_eq!(n.object(0, 0, 0), Path::new("/x/out/0_0/file-0"));
        let mut rel = Names::new(Path::new("out/"));
        assert_eq!(rel.object(2, 0, 9), Path::new("out/2_0/file-9"));
        assert_eq!(item(4, 2, 10), 42);
    }

    #[test]
    fn readers_and_writers_pair_up() {
        // 4 ranks, -O 1: in set 0 rank 0 reads rank 3's objects, writes into rank 1's set;
        // in set 1 the distance is 2.
        assert_eq!(read_rank(0, 1, 0, 4), 3);
        assert_eq!(write_rank(0, 1, 0, 4), 1);
        assert_eq!(read_rank(0, 1, 1, 4), 2);
        assert_eq!(write_rank(3, 1, 1, 4), 1);
        // One rank reads and writes its own sets; -O 0 too.
        assert_eq!((read_rank(0, 1, 5, 1), write_rank(0, 1, 5, 1)), (0, 0));
        assert_eq!(read_rank(2, 0, 3, 4), 2);
        // The reader of a set and its writer are the same rank: every set is consumed and
        // refilled by exactly one rank each.
        for ranks in 1..7 {
            for offset in 0..9 {
                for set in 0..5 {
                    for r in 0..ranks {
                        let w = write_rank(r, offset, set, ranks);
                        assert_eq!(read_rank(w, offset, set, ranks), r);
                    }
                }
            }
        }
        assert_eq!(
            read_rank(1, u64::MAX, u64::MAX - 1, 3),
            read_rank(1, 0, 2, 3)
        );
    }
}
