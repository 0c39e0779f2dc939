//! Checks against the file system before any I/O, so bad input ends with exit code 2 and
//! nothing touched. IOR itself does not create the directory of `-o` (only `-u`'s per-rank
//! directories). Before each write without `-E` it removes the test files the command line
//! names and creates them anew, and after the repetition it removes them unless `-k`; iogauge
//! does the same, but only to regular files: any other kind of file at a test-file name (a
//! directory, a symbolic link, a device) is refused here, before anything is touched. The
//! engine answers (`Engine::target_info`), so an engine without a POSIX namespace can too.

use std::path::{Path, PathBuf};

use engine::{Engine, FileKind};

use crate::file_kind::describe;
use crate::ior::{naming, IorParams};

/// What to do with a regular file already at a test-file name before a write without `-E`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Remove it and write a new one, as IOR does (`iogauge ior`).
    Replace,
    /// Refuse the run: the IO500 empties its data directory at the end, so it takes no
    /// files from before the run.
    Refuse,
}

/// What the checks found that is worth saying but not fatal.
#[derive(Debug, Default)]
pub struct Preflight {
    pub warnings: Vec<String>,
    /// Regular files from before the run that the write will replace, in test-file order.
    pub replaced: Vec<PathBuf>,
}

/// The directory a test file lives in (for `-u`, the parent of the per-rank directory).
fn home_dir(p: &IorParams, file: &Path) -> PathBuf {
    let parent = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let parent = if p.file_per_proc && p.unique_dir {
        parent.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        parent
    };
    if parent.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        parent
    }
}

/// Asks `engine` (rank 0's); one that never touches files (`Caps::does_io` false) skips
/// the checks.
pub fn preflight(
    p: &IorParams,
    tasks: u64,
    existing: Existing,
    engine: &dyn Engine,
) -> Result<Preflight, String> {
    let mut out = Preflight::default();
    if !engine.caps().does_io {
        return Ok(out);
    }
    let writes = p.write_file;
    let reads = p.read_file || p.check_read || p.check_write;
    let mut checked_dirs: Vec<PathBuf> = Vec::new();
    let shape = crate::ior::validate::io_shape(p);
    for file in naming::all_test_files(p, tasks) {
        let dir = home_dir(p, &file);
        if !checked_dirs.contains(&dir) {
            // An object store has no directories: a key's prefix needs nothing made first.
            if engine.caps().object.is_none() {
                check_dir(p, &dir, writes, engine)?;
            }
            // What only the file system knows (O_DIRECT's alignment there).
            engine::check_target(&p.engine, &shape, &file, &dir)?;
            checked_dirs.push(dir);
        }
        let at = engine
            .target_info(engine.target(&file))
            .map_err(|e| format!("-o {}: {}: {e}", p.test_file, file.display()))?;
        match at.kind {
            Some(kind) if kind != FileKind::File => {
                return Err(format!(
                    "-o {}: {} is {}; iogauge reads, writes and replaces only regular files at \
                     the test-file names",
                    p.test_file,
                    file.display(),
                    describe(kind)
                ));
            }
            Some(_) if writes && !p.use_existing_test_file => match existing {
                Existing::Replace => out.replaced.push(file),
                Existing::Refuse => {
                    return Err(format!(
                        "{} already exists; this run removes everything it writes, so it takes \
                         no files from before it: remove it or choose another directory",
                        file.display()
                    ))
                }
            },
            Some(_) => {}
            None if reads && !writes => {
                return Err(format!(
                    "{} does not exist: nothing to read (add -w to write it first)",
                    file.display()
                ));
            }
            None => {}
        }
    }
    if reads && !writes && !p.keep_file && p.repetitions > 1 && !p.multi_file {
        // IOR removes the files after the first repetition's read, so the second fails.
        return Err(format!(
            "-i {}: without -w and -k the test files are removed after the first repetition's \
             read (as IOR does), so the next one has nothing to read: add -k",
            p.repetitions
        ));
    }
    Ok(out)
}

/// The directory of the test files exists, is a directory and, for a write, is writable.
fn check_dir(p: &IorParams, dir: &Path, writes: bool, engine: &dyn Engine) -> Result<(), String> {
    let at = engine.target_info(engine.target(dir)).unwrap_or_default();
    if !at.exists {
        return Err(format!(
            "-o {}: directory {} does not exist (create it first; iogauge, like IOR, does not create it)",
            p.test_file,
            dir.display()
        ));
    }
    if !at.is_dir {
        return Err(format!(
            "-o {}: {} is not a directory",
            p.test_file,
            dir.display()
        ));
    }
    if writes && !at.writable {
        return Err(format!(
            "-o {}: directory {} is not writable",
            p.test_file,
            dir.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DummyEngine, PosixEngine};
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use Existing::{Refuse, Replace};

    static POSIX: PosixEngine = PosixEngine::new(false);

    fn params(o: &Path, fpp: bool) -> IorParams {
        IorParams {
            test_file: o.display().to_string(),
            file_per_proc: fpp,
            write_file: true,
            read_file: true,
            ..IorParams::default()
        }
    }

    #[test]
    fn missing_directory_is_refused() {
        let p = params(Path::new("/nonexistent-iogauge/x/f"), true);
        let e = preflight(&p, 2, Replace, &POSIX).unwrap_err();
        assert!(e.contains("/nonexistent-iogauge/x does not exist"), "{e}");
        assert!(
            preflight(&p, 2, Replace, &DummyEngine::new(Default::default(), 0)).is_ok(),
            "dummy engines touch nothing"
        );
    }

    #[test]
    fn existing_regular_files_are_replaced_or_refused() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(d.path().join("f.00000001"), b"x").unwrap();
        let mut p = params(&f, true);
        let ok = preflight(&p, 2, Replace, &POSIX).unwrap();
        assert_eq!(ok.replaced, [d.path().join("f.00000001")]);
        let e = preflight(&p, 2, Refuse, &POSIX).unwrap_err();
        assert!(e.contains("f.00000001 already exists"), "{e}");
        // -E writes into it: nothing is replaced.
        p.use_existing_test_file = true;
        assert!(preflight(&p, 2, Refuse, &POSIX)
            .unwrap()
            .replaced
            .is_empty());
    }

    #[test]
    fn other_kinds_of_files_are_refused_even_with_e() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        let elsewhere = d.path().join("elsewhere");
        std::fs::write(&elsewhere, b"user data").unwrap();
        for (make, kind) in [
            (0, "a directory"),
            (1, "a symbolic link"),
            (2, "a named pipe"),
        ] {
            let _ = std::fs::remove_dir(&f);
            let _ = std::fs::remove_file(&f);
            match make {
                0 => std::fs::create_dir(&f).unwrap(),
                1 => std::os::unix::fs::symlink(&elsewhere, &f).unwrap(),
                _ => {
                    let c = CString::new(f.as_os_str().as_bytes()).unwrap();
                    // SAFETY: a valid NUL-terminated path.
                    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
                }
            }
            for e_flag in [false, true] {
                let mut p = params(&f, false);
                p.use_existing_test_file = e_flag;
                let e = preflight(&p, 2, Replace, &POSIX).unwrap_err();
                assert!(e.contains(kind) && e.contains("only regular files"), "{e}");
            }
        }
        assert_eq!(std::fs::read(&elsewhere).unwrap(), b"user data");
    }

    #[test]
    fn read_only_needs_the_files_and_k_for_a_second_repetition() {
        let d = tempfile::tempdir().unwrap();
        let mut p = params(&d.path().join("f"), false);
        p.write_file = false;
        assert!(preflight(&p, 2, Replace, &POSIX)
            .unwrap_err()
            .contains("does not exist"));
        std::fs::write(d.path().join("f"), b"x").unwrap();
        let ok = preflight(&p, 2, Replace, &POSIX).unwrap();
        assert!(ok.warnings.is_empty() && ok.replaced.is_empty());
        p.repetitions = 2;
        let e = preflight(&p, 2, Replace, &POSIX).unwrap_err();
        assert!(e.contains("add -k"), "{e}");
        p.keep_file = true;
        assert!(preflight(&p, 2, Replace, &POSIX).is_ok());
    }

    #[test]
    fn unique_dir_checks_the_parent_of_rank_dirs() {
        let d = tempfile::tempdir().unwrap();
        let mut p = params(&d.path().join("f"), true);
        p.unique_dir = true;
        assert!(preflight(&p, 3, Replace, &POSIX).is_ok());
    }
}
