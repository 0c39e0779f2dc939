//! One rank's tree and what exists in it, so every operation finds its target and the cleanup
//! removes exactly what the run made. Names: `DIR/r<rank>/d<j>` data directories, files
//! `d<id % dirs>/f<id>` (a rename keeps the directory and takes a fresh id), empty directories
//! `e<id>`. Paths are built in buffers kept across operations, so the timed loop does not
//! allocate for them.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plan::mix::Tree as Shape;

use crate::rng::SplitMix;

/// A rank's directory under `--dir`.
pub fn rank_dir(dir: &Path, rank: u64) -> PathBuf {
    dir.join(format!("r{rank}"))
}

/// What exists of one rank's tree.
#[derive(Debug, Clone)]
pub struct RankTree {
    root: PathBuf,
    dirs: u64,
    /// The rank directory was made by this run.
    pub made_root: bool,
    /// Data directories `d0 .. d<made_dirs>` made by this run.
    pub made_dirs: u64,
    /// Ids of the files that exist now.
    live: Vec<u64>,
    /// Ids of the empty directories that exist now.
    empty: Vec<u64>,
    next_file: u64,
    next_dir: u64,
    buf: [OsString; 2],
    num: String,
}

impl RankTree {
    pub fn new(dir: &Path, rank: u64, shape: &Shape) -> RankTree {
        RankTree {
            root: rank_dir(dir, rank),
            dirs: shape.dirs.max(1),
            made_root: false,
            made_dirs: 0,
            live: Vec::new(),
            empty: Vec::new(),
            // Ids below dirs * files_per_dir are the prepared files'.
            next_file: shape.files_per_dir,
            next_dir: 0,
            buf: [OsString::new(), OsString::new()],
            num: String::new(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn files(&self) -> usize {
        self.live.len()
    }

    pub fn empty_dirs(&self) -> usize {
        self.empty.len()
    }

    /// Room for `files` more files and `dirs` more directories without reallocating in the
    /// timed loop.
    pub fn reserve(&mut self, files: usize, dirs: usize) {
        self.live.reserve(files);
        self.empty.reserve(dirs);
    }

    fn fill(&mut self, slot: usize, tail: std::fmt::Arguments<'_>) {
        self.num.clear();
        let _ = self.num.write_fmt(tail);
        let b = &mut self.buf[slot];
        b.clear();
        b.push(&self.root);
        b.push(&self.num);
    }

    fn build(&mut self, slot: usize, tail: std::fmt::Arguments<'_>) -> &Path {
        self.fill(slot, tail);
        Path::new(&self.buf[slot])
    }

    /// The paths of files `from` and `to` at once (a rename's).
    pub fn file_pair(&mut self, from: u64, to: u64) -> (&Path, &Path) {
        let (df, dt) = (from % self.dirs, to % self.dirs);
        self.fill(0, format_args!("/d{df}/f{from}"));
        self.fill(1, format_args!("/d{dt}/f{to}"));
        (Path::new(&self.buf[0]), Path::new(&self.buf[1]))
    }

    /// The path of data directory `j`.
    pub fn data_dir(&mut self, j: u64) -> &Path {
        self.build(0, format_args!("/d{j}"))
    }

    pub fn file_path(&mut self, slot: usize, id: u64) -> &Path {
        let d = id % self.dirs;
        self.build(slot, format_args!("/d{d}/f{id}"))
    }

    pub fn empty_path(&mut self, id: u64) -> &Path {
        self.build(0, format_args!("/e{id}"))
    }

    /// The prepared file `n` of data directory `j`.
    pub fn prepared_id(&self, j: u64, n: u64) -> u64 {
        n * self.dirs + j
    }

    /// A fresh file id in a random data directory (not yet counted as existing).
    pub fn new_file(&mut self, rng: &mut SplitMix) -> u64 {
        let id = self.next_file * self.dirs + rng.below(self.dirs);
        self.next_file += 1;
        id
    }

    /// A fresh id in the directory of `id`, for a rename.
    pub fn renamed(&mut self, id: u64) -> u64 {
        let to = self.next_file * self.dirs + id % self.dirs;
        self.next_file += 1;
        to
    }

    pub fn new_empty(&mut self) -> u64 {
        let id = self.next_dir;
        self.next_dir += 1;
        id
    }

    /// A random existing file: its index in the live set and its id.
    pub fn pick_file(&self, rng: &mut SplitMix) -> Option<(usize, u64)> {
        let n = self.live.len() as u64;
        (n > 0).then(|| {
            let i = rng.below(n) as usize;
            (i, self.live[i])
        })
    }

    pub fn pick_empty(&self, rng: &mut SplitMix) -> Option<(usize, u64)> {
        let n = self.empty.len() as u64;
        (n > 0).then(|| {
            let i = rng.below(n) as usize;
            (i, self.empty[i])
        })
    }

    pub fn pick_dir(&self, rng: &mut SplitMix) -> u64 {
        rng.below(self.dirs.min(self.made_dirs.max(1)))
    }

    pub fn added_file(&mut self, id: u64) {
        self.live.push(id);
    }

    pub fn removed_file(&mut self, index: usize) {
        self.live.swap_remove(index);
    }

    pub fn moved_file(&mut self, index: usize, to: u64) {
        self.live[index] = to;
    }

    pub fn added_empty(&mut self, id: u64) {
        self.empty.push(id);
    }

    pub fn removed_empty(&mut self, index: usize) {
        self.empty.swap_remove(index);
    }

    /// What exists now, for the cleanup: file ids and empty directory ids.
    pub fn existing(&self) -> (Vec<u64>, Vec<u64>) {
        (self.live.clone(), self.empty.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> Shape {
        Shape {
            dirs: 3,
            files_per_dir: 2,
            ..Shape::default()
        }
    }

    #[test]
    fn names_and_ids() {
        let mut t = RankTree::new(Path::new("/x"), 2, &shape());
        assert_eq!(t.root(), Path::new("/x/r2"));
        assert_eq!(t.data_dir(1), Path::new("/x/r2/d1"));
        let id = t.prepared_id(2, 1);
        assert_eq!(t.file_path(0, id), Path::new("/x/r2/d2/f5"));
        assert_eq!(t.empty_path(4), Path::new("/x/r2/e4"));
        // Fresh ids never collide with the prepared ones and keep the directory on rename.
        let mut rng = SplitMix::new(7);
        let mut seen: Vec<u64> = (0..3)
            .flat_map(|j| (0..2).map(move |n| n * 3 + j))
            .collect();
        for _ in 0..50 {
            let f = t.new_file(&mut rng);
            let r = t.renamed(f);
            assert_eq!(r % 3, f % 3);
            assert!(!seen.contains(&f) && !seen.contains(&r) && f != r);
            seen.extend([f, r]);
        }
    }

    #[test]
    fn the_live_set_follows_the_operations() {
        let mut t = RankTree::new(Path::new("/x"), 0, &shape());
        let mut rng = SplitMix::new(1);
        assert_eq!(t.pick_file(&mut rng), None);
        t.added_file(10);
        t.added_file(11);
        let (i, id) = t.pick_file(&mut rng).unwrap();
        t.moved_file(i, 99);
        assert!(t.existing().0.contains(&99) && !t.existing().0.contains(&id));
        t.removed_file(0);
        assert_eq!(t.files(), 1);
        let e = t.new_empty();
        t.added_empty(e);
        assert_eq!(t.pick_empty(&mut rng), Some((0, e)));
        t.removed_empty(0);
        assert_eq!(t.empty_dirs(), 0);
    }
}
