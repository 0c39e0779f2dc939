//! mdtest's names: test directories, tree directories, items, and the `-N` phase shift.
//!
//! ```text
//! <-d>/test-dir.<iter>-<loop>/mdtest_tree.0/[mdtest_tree.<k>/...]file.mdtest.<r>.<k>
//! <-d>/test-dir.<iter>-<loop>/mdtest_tree.<t>.0/[mdtest_tree.<t>.<k>/...]dir.mdtest.<r>.<k>  (-u)
//! ```
//!
//! [`PathBuilder`] writes these paths into one reusable buffer, so the per-item cost is a few
//! byte copies and no allocation.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::tree::Tree;

/// `test-dir.<iteration>-<loop>`.
pub fn test_dir_name(iteration: u32, dir_loop: u64) -> String {
    format!("test-dir.{iteration}-{dir_loop}")
}

/// Base name of tree directories: `mdtest_tree` (shared) or `mdtest_tree.<owner>` (`-u`).
/// The root is `<base>.0`, directory `k` is `<base>.<k>`.
pub fn tree_base(unique_dir: bool, owner: u64) -> String {
    if unique_dir {
        format!("mdtest_tree.{owner}")
    } else {
        "mdtest_tree".to_string()
    }
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
}

/// `file.mdtest.<rank>.` or `dir.mdtest.<rank>.`; the item number follows.
pub fn item_prefix(kind: Kind, name_rank: u64) -> String {
    let k = match kind {
        Kind::File => "file",
        Kind::Dir => "dir",
    };
    format!("{k}.mdtest.{name_rank}.")
}

/// The phases `-N` shifts, by how many strides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Create = 0,
    /// Stat and rename.
    Stat = 1,
    Read = 2,
    Remove = 3,
}

/// `(rank + k * stride) mod tasks` without overflow.
fn shifted(rank: u64, k: u64, stride: u64, tasks: u64) -> u64 {
    let s = (stride % tasks) as u128 * k as u128;
    ((rank as u128 + s) % tasks as u128) as u64
}

/// Whose item names rank `rank` uses in a phase: `mdtest.<(rank + step*stride) % tasks>.`.
pub fn name_rank(rank: u64, step: Step, stride: u64, tasks: u64) -> u64 {
    shifted(rank, step as u64, stride, tasks)
}

/// Whose tree rank `rank` works in with `-u`: one stride further than the names, so that
/// with `-N 1` the creator of `mdtest.r.*` works in `mdtest_tree.<r+1>.0` (mdtest's rule).
pub fn tree_owner(rank: u64, step: Step, stride: u64, tasks: u64) -> u64 {
    shifted(rank, step as u64 + 1, stride, tasks)
}

/// mdtest multiplies `-N` by the tasks per node when tasks are block-mapped on several nodes,
/// so that the shifted partner is on another node.
pub fn effective_stride(nstride: u64, nodes: usize, tasks_on_node0: usize, block: bool) -> u64 {
    if nstride > 0 && nodes > 1 && block {
        nstride.saturating_mul(tasks_on_node0 as u64)
    } else {
        nstride
    }
}

/// Builds `<root>/<base>.0/<base>.<c1>/.../<prefix><k>` into one buffer.
pub struct PathBuilder {
    tree: Tree,
    base: Vec<u8>,
    prefix: Vec<u8>,
    buf: Vec<u8>,
    root_len: usize,
    /// Length up to and including the prefix of the current directory.
    item_len: usize,
    cur_dir: Option<u64>,
    chain: Vec<u64>,
}

fn push_u64(buf: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

impl PathBuilder {
    /// `test_dir` is `<-d>/test-dir.<iter>-<loop>`; `base` from [`tree_base`]; `prefix` from
    /// [`item_prefix`] (empty when only directories of the tree are wanted).
    pub fn new(test_dir: &Path, tree: Tree, base: &str, prefix: &str) -> Self {
        let mut buf = Vec::with_capacity(256);
        buf.extend_from_slice(test_dir.as_os_str().as_bytes());
        buf.push(b'/');
        buf.extend_from_slice(base.as_bytes());
        buf.extend_from_slice(b".0");
        let root_len = buf.len();
        PathBuilder {
            tree,
            base: base.as_bytes().to_vec(),
            prefix: prefix.as_bytes().to_vec(),
            buf,
            root_len,
            item_len: root_len,
            cur_dir: None,
            chain: Vec::new(),
        }
    }

    fn enter(&mut self, d: u64) {
        self.buf.truncate(self.root_len);
        self.tree.chain(d, &mut self.chain);
        for &c in &self.chain {
            self.buf.push(b'/');
            self.buf.extend_from_slice(&self.base);
            self.buf.push(b'.');
            push_u64(&mut self.buf, c);
        }
    }

    /// The tree directory `d`.
    pub fn dir(&mut self, d: u64) -> &Path {
        self.enter(d);
        self.cur_dir = None;
        Path::new(OsStr::from_bytes(&self.buf))
    }

    /// Item `k` in directory `d` (`d = k / items_per_dir`).
    #[inline]
    pub fn item(&mut self, d: u64, k: u64) -> &Path {
        if self.cur_dir != Some(d) {
            self.enter(d);
            self.buf.push(b'/');
            self.buf.extend_from_slice(&self.prefix);
            self.item_len = self.buf.len();
            self.cur_dir = Some(d);
        }
        self.buf.truncate(self.item_len);
        push_u64(&mut self.buf, k);
        Path::new(OsStr::from_bytes(&self.buf))
    }

    /// Owned copy of item `k`'s path (rename keeps two of them).
    pub fn item_owned(&mut self, d: u64, k: u64) -> PathBuf {
        self.item(d, k).to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tree(depth: u32, branch: u64) -> Tree {
        Tree { depth, branch }
    }

    fn s(p: &Path) -> &str {
        p.to_str().unwrap()
    }

    #[test]
    fn shared_tree_paths_match_mdtest() {
        // mdtest -n 6 -z 1 -b 2 on 2 ranks: rank 1's items 2, 3 live in mdtest_tree.1.
        let mut b = PathBuilder::new(
            Path::new("/d/test-dir.0-0"),
            tree(1, 2),
            &tree_base(false, 0),
            &item_prefix(Kind::File, 1),
        );
        assert_eq!(
            s(b.item(0, 0)),
            "/d/test-dir.0-0/mdtest_tree.0/file.mdtest.1.0"
        );
        assert_eq!(
            s(b.item(1, 3)),
            "/d/test-dir.0-0/mdtest_tree.0/mdtest_tree.1/file.mdtest.1.3"
        );
        assert_eq!(s(b.dir(2)), "/d/test-dir.0-0/mdtest_tree.0/mdtest_tree.2");
        assert_eq!(s(b.dir(0)), "/d/test-dir.0-0/mdtest_tree.0");
    }

    #[test]
    fn deep_leaf_paths() {
        // mdtest -I 2 -z 2 -b 2 -L: item 12 is in mdtest_tree.0/mdtest_tree.2/mdtest_tree.6.
        let mut b = PathBuilder::new(
            Path::new("x"),
            tree(2, 2),
            "mdtest_tree",
            &item_prefix(Kind::Dir, 0),
        );
        assert_eq!(
            s(b.item(6, 12)),
            "x/mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/dir.mdtest.0.12"
        );
        assert_eq!(
            s(b.item(6, 13)),
            "x/mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/dir.mdtest.0.13"
        );
        // A chain (b = 1) nests every level.
        let mut b = PathBuilder::new(Path::new("x"), tree(3, 1), "mdtest_tree.4", "f.");
        assert_eq!(
            s(b.item(3, 30)),
            "x/mdtest_tree.4.0/mdtest_tree.4.1/mdtest_tree.4.2/mdtest_tree.4.3/f.30"
        );
    }

    #[test]
    fn unique_trees_and_shift() {
        // -u -N 1 on 2 ranks: rank 0 creates file.mdtest.0.* in mdtest_tree.1.0, stats
        // rank 1's names in its own tree, reads its own names in tree 1, removes rank 1's.
        let (r, s1, p) = (0, 1, 2);
        assert_eq!(name_rank(r, Step::Create, s1, p), 0);
        assert_eq!(tree_owner(r, Step::Create, s1, p), 1);
        assert_eq!(name_rank(r, Step::Stat, s1, p), 1);
        assert_eq!(tree_owner(r, Step::Stat, s1, p), 0);
        assert_eq!(name_rank(r, Step::Read, s1, p), 0);
        assert_eq!(tree_owner(r, Step::Read, s1, p), 1);
        assert_eq!(name_rank(r, Step::Remove, s1, p), 1);
        assert_eq!(tree_owner(r, Step::Remove, s1, p), 0);
        // A huge stride does not overflow: (u64::MAX - 1) % 5 = 4, (3 + 3 * 4) % 5 = 0.
        assert_eq!(name_rank(3, Step::Remove, u64::MAX - 1, 5), 0);
        assert_eq!(effective_stride(1, 2, 4, true), 4);
        assert_eq!(effective_stride(1, 2, 4, false), 1);
        assert_eq!(effective_stride(1, 1, 4, true), 1);
        assert_eq!(test_dir_name(2, 7), "test-dir.2-7");
    }

    proptest! {
        /// Whatever the stride, the tasks that create names `r` and later stat, read or remove
        /// them find them in the tree they were created in.
        #[test]
        fn shifted_phases_find_the_created_items(
            tasks in 1u64..9, stride in 0u64..20, rank in 0u64..9
        ) {
            let rank = rank % tasks;
            for step in [Step::Stat, Step::Read, Step::Remove] {
                let names = name_rank(rank, step, stride, tasks);
                // The creator of `names` is the rank whose create step used those names.
                let creator = (0..tasks)
                    .find(|&c| name_rank(c, Step::Create, stride, tasks) == names)
                    .unwrap();
                prop_assert_eq!(
                    tree_owner(creator, Step::Create, stride, tasks),
                    tree_owner(rank, step, stride, tasks)
                );
            }
        }
    }
}
