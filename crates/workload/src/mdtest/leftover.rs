//! A tree an earlier run left under this run's names (`-C` twice without `-r`), or a user's
//! file inside it. mdtest goes on: a test directory that exists is used as it is, a mkdir that
//! fails and an rmdir that fails are a `WARNING:` line each, and the operation still counts in
//! the phase's rate. iogauge goes on the same way, but says it once per phase and kind, with
//! the count and the first path: one line per item would bury the summary under thousands.
//!
//! Only two failures are taken for leftovers, and only they: a mkdir whose name is already a
//! real directory (not a symlink: nothing is ever made through one), and an rmdir of a directory
//! that is not empty (it holds what this run did not create, so it stays). Every other failure
//! still stops the run (status 1), as before.

use std::io;
use std::path::{Path, PathBuf};

use engine::Engine;
use exec::ReduceOp;

use super::ctx::Ctx;
use super::error::MdError;

/// What a [`Tally`] counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leftover {
    /// `test-dir.<iter>-<loop>` was there before the create.
    TestDirExists,
    /// A directory of the tree was there (mdtest: "unable to create tree directory").
    TreeDirExists,
    /// A directory item was there (mdtest: "unable to create directory").
    DirExists,
    /// A directory item held something else (mdtest: "unable to remove directory").
    DirKept,
    /// A tree directory held something else (mdtest: "Unable to remove directory").
    TreeDirKept,
    /// A test directory held something else (mdtest: "unable to remove directory").
    TestDirKept,
}

/// One rank's count of one kind of leftover in one phase, and the first path.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub count: u64,
    pub first: Option<PathBuf>,
}

impl Tally {
    fn note(&mut self, path: &Path) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(path.to_path_buf());
        }
    }
}

/// mkdir, where a real directory of that name is an earlier run's and is used as it is.
pub(crate) fn mkdir(e: &dyn Engine, path: &Path, tally: &mut Tally) -> Result<(), MdError> {
    let err = match e.mkdir(e.target(path)) {
        Ok(()) => return Ok(()),
        Err(err) => err,
    };
    if err.kind() != io::ErrorKind::AlreadyExists {
        return Err(MdError::io("mkdir", path, err));
    }
    // Only on this path, so a fresh run pays no extra call.
    match e.lstat(e.target(path)) {
        Ok(st) if st.is_dir => {
            tally.note(path);
            Ok(())
        }
        _ => Err(MdError::io(
            "mkdir",
            path,
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                "exists and is not a directory (a file or a symlink no mdtest run leaves); \
                 iogauge does not work through it: remove or rename it",
            ),
        )),
    }
}

/// rmdir, where a directory that is not empty holds what this run did not create: it stays.
pub(crate) fn rmdir(e: &dyn Engine, path: &Path, tally: &mut Tally) -> Result<(), MdError> {
    match e.rmdir(e.target(path)) {
        Ok(()) => Ok(()),
        // POSIX allows EEXIST for a directory that is not empty.
        Err(err) if matches!(err.raw_os_error(), Some(libc::ENOTEMPTY | libc::EEXIST)) => {
            tally.note(path);
            Ok(())
        }
        Err(err) => Err(MdError::io("rmdir", path, err)),
    }
}

/// Says what every rank counted, once (collective: every rank calls it, in the same order).
/// Rank 0 prints the total and the first path of the lowest rank that has one.
pub(crate) fn report(
    ctx: &Ctx,
    kind: Leftover,
    iteration: u32,
    tally: Tally,
) -> Result<(), MdError> {
    let total = ctx.comm.all_reduce_u64(tally.count, ReduceOp::Sum)?;
    if total == 0 {
        return Ok(());
    }
    let mine = tally
        .first
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let Some(all) = ctx.comm.gather_bytes(mine.as_bytes(), 0)? else {
        return Ok(());
    };
    let first = all
        .iter()
        .find(|b| !b.is_empty())
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default();
    let when = (ctx.params.iterations > 1).then_some(iteration);
    ctx.events.warning(&message(kind, total, &first, when));
    Ok(())
}

/// The warning: mdtest's wording with the first path, then the count and what it means.
pub(crate) fn message(kind: Leftover, total: u64, first: &str, iteration: Option<u32>) -> String {
    let when = iteration.map_or(String::new(), |i| format!(" in iteration {i}"));
    let n = |one: &str, many: &str| {
        let noun = if total == 1 { one } else { many };
        format!("{total} {noun} in all{when}")
    };
    let kept = "not empty: it holds what this run did not create";
    match kind {
        Leftover::TestDirExists => format!(
            "test directory {first} already exists (left by an earlier run?); {}: the run goes \
             on in it, as mdtest does; directories there are counted but not created, files \
             there are reopened and rewritten, so the creation rates are not those of new items",
            n("test directory", "test directories")
        ),
        Leftover::TreeDirExists => format!(
            "unable to create tree directory {first}: it exists (left by an earlier run?); {}, \
             used as they are, as mdtest does",
            n("tree directory", "tree directories")
        ),
        Leftover::DirExists => format!(
            "unable to create directory {first}: it exists (left by an earlier run?); {}, \
             counted in the Directory creation rate, as mdtest does",
            n("directory", "directories")
        ),
        Leftover::DirKept => format!(
            "unable to remove directory {first}: {kept}; {}, left in place",
            n("directory", "directories")
        ),
        Leftover::TreeDirKept => format!(
            "unable to remove tree directory {first}: {kept}; {}, left in place",
            n("tree directory", "tree directories")
        ),
        Leftover::TestDirKept => format!(
            "unable to remove test directory {first}: {kept}; {}, left in place",
            n("test directory", "test directories")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::PosixEngine;

    #[test]
    fn existing_directories_are_counted_and_anything_else_stops() {
        let d = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        let mut t = Tally::default();
        let a = d.path().join("a");
        mkdir(&e, &a, &mut t).unwrap();
        assert_eq!(t.count, 0);
        mkdir(&e, &a, &mut t).unwrap();
        mkdir(&e, &a, &mut t).unwrap();
        assert_eq!((t.count, t.first.as_deref()), (2, Some(a.as_path())));
        // A file or a symlink to a directory at the name is not an earlier run's tree.
        let f = d.path().join("f");
        std::fs::write(&f, b"mine").unwrap();
        let err = mkdir(&e, &f, &mut t).unwrap_err().to_string();
        assert!(err.contains("exists and is not a directory"), "{err}");
        let l = d.path().join("l");
        std::os::unix::fs::symlink(&a, &l).unwrap();
        assert!(mkdir(&e, &l, &mut t).is_err());
        assert!(mkdir(&e, &d.path().join("no/such"), &mut t).is_err());
        assert_eq!(t.count, 2);
    }

    #[test]
    fn a_directory_holding_something_stays() {
        let d = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        let mut t = Tally::default();
        let a = d.path().join("a");
        std::fs::create_dir(&a).unwrap();
        std::fs::write(a.join("user"), b"mine").unwrap();
        rmdir(&e, &a, &mut t).unwrap();
        assert_eq!(t.count, 1);
        assert_eq!(std::fs::read(a.join("user")).unwrap(), b"mine");
        // Missing, or not a directory: still an error.
        assert!(rmdir(&e, &d.path().join("gone"), &mut t).is_err());
        assert!(rmdir(&e, &a.join("user"), &mut t).is_err());
        std::fs::remove_file(a.join("user")).unwrap();
        rmdir(&e, &a, &mut t).unwrap();
        assert!(!a.exists());
        assert_eq!(t.count, 1);
    }

    #[test]
    fn messages_start_with_mdtest_wording() {
        let m = message(Leftover::TreeDirExists, 3, "/d/t/mdtest_tree.0.0", None);
        assert_eq!(
            m,
            "unable to create tree directory /d/t/mdtest_tree.0.0: it exists (left by an \
             earlier run?); 3 tree directories in all, used as they are, as mdtest does"
        );
        let m = message(Leftover::DirExists, 1, "/x/dir.mdtest.0.0", Some(1));
        assert!(
            m.starts_with(
                "unable to create directory /x/dir.mdtest.0.0: it exists (left by an earlier \
                 run?); 1 directory in all in iteration 1, counted"
            ),
            "{m}"
        );
        let m = message(Leftover::TestDirKept, 1, "/d/test-dir.0-0", None);
        assert_eq!(
            m,
            "unable to remove test directory /d/test-dir.0-0: not empty: it holds what this run \
             did not create; 1 test directory in all, left in place"
        );
    }
}
