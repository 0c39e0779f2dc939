//! One rank's walk: take a directory from the pool, read it, queue its subdirectories, count
//! and test the other entries the way pfind does.
//!
//! Per entry (pfind `find_do_readdir`): a directory is queued and not counted; any other entry
//! counts as examined; a name mismatch ends there, without a stat; a name match is a match
//! outright when neither `-newer` nor `-size` is given, else it takes one `lstat`. An entry
//! whose type readdir does not report takes an `lstat` first to learn whether it is a
//! directory. The latency histogram holds one value per directory: the engine's `read_dir`
//! (open, read every entry, close), not the stats that follow.

use engine::Target;
use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use engine::{DirEntry, Engine, FileStat};
use measure::{now_ns, Recorder};

use super::counts::Counts;
use super::pool::DirPool;
use super::query::Matcher;

/// Where listed matches go; shared by the ranks, called with whole lines.
pub trait Lister: Sync {
    fn write(&self, lines: &[u8]);
    /// Called on every rank once its walk is over (a lister that holds lines until the end
    /// gathers them here).
    fn after_walk(&self, _comm: &dyn exec::Comm) -> Result<(), exec::CommError> {
        Ok(())
    }
}

/// The two engine calls a walk makes; every [`Engine`] provides them.
pub trait DirSource {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>>;
    fn lstat(&self, path: &Path) -> io::Result<FileStat>;
}

impl<E: Engine + ?Sized> DirSource for E {
    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>> {
        Engine::read_dir(self, Target::from(path))
    }
    fn lstat(&self, path: &Path) -> io::Result<FileStat> {
        Engine::lstat(self, Target::from(path))
    }
}

/// Buffered listing is flushed past this many bytes, so ranks rarely contend for the output.
const LIST_FLUSH: usize = 64 * 1024;
/// Unreadable directories named in the warning, per rank.
const MAX_NAMED_ERRORS: usize = 8;

/// A rank's walk state and what it counted.
pub struct Walker<'a, S: DirSource + ?Sized> {
    rank: usize,
    engine: &'a S,
    pool: &'a dyn DirPool,
    matcher: &'a Matcher,
    list: Option<&'a dyn Lister>,
    out: Vec<u8>,
    /// Reused for the full path of each `lstat`, so a stat allocates nothing.
    scratch: PathBuf,
    pub counts: Counts,
    /// One latency per directory read; the live counters count directories.
    pub rec: Recorder,
    /// "path: error" for the first unreadable directories.
    pub unreadable: Vec<String>,
}

/// Aborts the pool if this rank panics, so the other ranks do not wait for its work forever.
struct AbortOnPanic<'a>(&'a dyn DirPool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort();
        }
    }
}

impl<'a, S: DirSource + ?Sized> Walker<'a, S> {
    pub fn new(
        rank: usize,
        engine: &'a S,
        pool: &'a dyn DirPool,
        matcher: &'a Matcher,
        list: Option<&'a dyn Lister>,
        rec: Recorder,
    ) -> Self {
        Walker {
            rank,
            engine,
            pool,
            matcher,
            list,
            out: Vec::with_capacity(if list.is_some() { 2 * LIST_FLUSH } else { 0 }),
            scratch: PathBuf::new(),
            counts: Counts::default(),
            rec,
            unreadable: Vec::new(),
        }
    }

    /// Walks until the pool runs dry or a signal asks the ranks to stop (looked at once per
    /// directory: every rank's walk ends, the pool's queues are dropped), then flushes the
    /// listing.
    pub fn run(&mut self) {
        self.rec.start(now_ns());
        let _guard = AbortOnPanic(self.pool);
        while let Some(dir) = self.pool.next(self.rank) {
            self.read(&dir);
            self.pool.finish(self.rank);
            if exec::interrupt::requested() {
                self.pool.abort();
                break;
            }
        }
        self.flush();
        self.counts.set_steals(self.pool.steal_stats(self.rank));
    }

    fn read(&mut self, dir: &Path) {
        let t0 = now_ns();
        let entries = match self.engine.read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                self.counts.unreadable_dirs += 1;
                if self.unreadable.len() < MAX_NAMED_ERRORS {
                    self.unreadable.push(format!("{}: {e}", dir.display()));
                }
                return;
            }
        };
        self.rec.record_since(0, t0, 0);
        self.counts.dirs += 1;
        self.counts.dirents += entries.len() as u64;
        for e in &entries {
            match e.is_dir {
                Some(true) => self.pool.push(self.rank, dir.join(&e.name)),
                Some(false) => self.file(dir, &e.name, None),
                None => {
                    self.counts.unknown += 1;
                    match self.lstat(dir, &e.name) {
                        Some(st) if st.is_dir => self.pool.push(self.rank, dir.join(&e.name)),
                        Some(st) => self.file(dir, &e.name, Some(st)),
                        // pfind does not count an entry it cannot stat here.
                        None => {}
                    }
                }
            }
        }
    }

    /// A non-directory entry; `st` when it has been stat'ed already.
    #[inline]
    fn file(&mut self, dir: &Path, name: &OsStr, st: Option<FileStat>) {
        self.counts.examined += 1;
        if !self.matcher.name_ok(name.as_bytes()) {
            return;
        }
        if self.matcher.needs_stat() {
            let st = match st {
                Some(st) => st,
                None => match self.lstat(dir, name) {
                    Some(st) => st,
                    None => return,
                },
            };
            if !self.matcher.stat_ok(&st) {
                return;
            }
        }
        self.counts.found += 1;
        if self.list.is_some() {
            self.list_path(dir, name);
        }
    }

    fn lstat(&mut self, dir: &Path, name: &OsStr) -> Option<FileStat> {
        self.scratch.clear();
        self.scratch.push(dir);
        self.scratch.push(name);
        self.counts.stats += 1;
        match self.engine.lstat(&self.scratch) {
            Ok(st) => Some(st),
            Err(_) => {
                self.counts.stat_errors += 1;
                None
            }
        }
    }

    /// `dir/name` as find(1) prints it (no doubled slash after a root given with one).
    fn list_path(&mut self, dir: &Path, name: &OsStr) {
        let d = dir.as_os_str().as_bytes();
        self.out.extend_from_slice(d);
        if !d.ends_with(b"/") {
            self.out.push(b'/');
        }
        self.out.extend_from_slice(name.as_bytes());
        self.out.push(b'\n');
        if self.out.len() >= LIST_FLUSH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if let Some(list) = self.list {
            if !self.out.is_empty() {
                list.write(&self.out);
                self.out.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::{NamePattern, Query, StealingPool, VictimChoice};
    use std::collections::HashMap;

    /// A made-up tree: entries with unknown types, an unreadable directory,
    /// entries that cannot be stat'ed.
    struct Fake {
        dirs: HashMap<PathBuf, Vec<DirEntry>>,
        stats: HashMap<PathBuf, FileStat>,
    }

    impl DirSource for Fake {
        fn lstat(&self, p: &Path) -> io::Result<FileStat> {
            self.stats
                .get(p)
                .copied()
                .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
        }
        fn read_dir(&self, p: &Path) -> io::Result<Vec<DirEntry>> {
            self.dirs
                .get(p)
                .cloned()
                .ok_or_else(|| io::Error::from(io::ErrorKind::PermissionDenied))
        }
    }

    fn entry(name: &str, is_dir: Option<bool>) -> DirEntry {
        DirEntry {
            name: name.into(),
            is_dir,
        }
    }

    fn st(size: u64, is_dir: bool) -> FileStat {
        FileStat {
            size,
            is_dir,
            kind: if is_dir {
                engine::FileKind::Dir
            } else {
                engine::FileKind::File
            },
            ctime_sec: 100,
            ctime_nsec: 0,
        }
    }

    #[test]
    fn unknown_types_errors_and_unreadable_directories() {
        let fake = Fake {
            dirs: HashMap::from([
                (
                    PathBuf::from("/r"),
                    vec![
                        entry("d", None),
                        entry("f01", None),
                        entry("g", None),
                        entry("bad", Some(true)),
                        entry("h01", Some(false)),
                    ],
                ),
                (PathBuf::from("/r/d"), vec![entry("x01", Some(false))]),
            ]),
            stats: HashMap::from([
                (PathBuf::from("/r/d"), st(0, true)),
                (PathBuf::from("/r/f01"), st(3901, false)),
                (PathBuf::from("/r/d/x01"), st(3901, false)),
            ]),
        };
        let q = Query {
            newer: None,
            size: Some(3901),
            name: Some(NamePattern::parse("*01*").unwrap()),
        };
        let m = Matcher::new(&q, None);
        let pool = StealingPool::new(1, vec!["/r".into()], 10, VictimChoice::Random);
        let mut w = Walker::new(0, &fake, &pool, &m, None, Recorder::new(1, 1_000_000_000));
        w.run();
        let c = w.counts;
        // f01, h01 (stat failed: counted, as pfind) and x01; g's type is unknown and its stat
        // failed, so it is not counted (pfind `continue`s).
        assert_eq!((c.examined, c.found), (3, 2));
        assert_eq!((c.dirs, c.dirents, c.unknown), (2, 6, 3));
        // d, f01, g for their type (f01 not again), h01 and x01 for -size.
        assert_eq!((c.stats, c.stat_errors, c.unreadable_dirs), (5, 2, 1));
        assert_eq!(w.unreadable.len(), 1);
        assert!(
            w.unreadable[0].starts_with("/r/bad: "),
            "{:?}",
            w.unreadable
        );
        assert_eq!(
            w.rec.latency(0).count(),
            2,
            "one latency per directory read"
        );
    }
}
