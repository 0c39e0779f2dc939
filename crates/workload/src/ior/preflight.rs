//! Checks against the file system before any I/O, so bad input ends with exit code 2 and
//! nothing touched. IOR itself does not create the directory of `-o` (only `-u`'s per-rank
//! directories) and overwrites existing files; iogauge refuses to overwrite a file that
//! existed before the run unless `--overwrite` (or `-E`, which writes into it) is given.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::ior::{naming, IorParams};

/// What the checks found that is worth saying but not fatal.
#[derive(Debug, Default)]
pub struct Preflight {
    pub warnings: Vec<String>,
}

fn writable(dir: &Path) -> bool {
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access(2) only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
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

/// `does_io`: false for engines that never touch files (the checks are skipped).
pub fn preflight(
    p: &IorParams,
    tasks: u64,
    overwrite: bool,
    does_io: bool,
) -> Result<Preflight, String> {
    let mut out = Preflight::default();
    if !does_io {
        return Ok(out);
    }
    let writes = p.write_file;
    let reads = p.read_file || p.check_read || p.check_write;
    let mut checked_dirs: Vec<PathBuf> = Vec::new();
    for file in naming::all_test_files(p, tasks) {
        let dir = home_dir(p, &file);
        if !checked_dirs.contains(&dir) {
            match std::fs::metadata(&dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(format!("-o {}: {} is not a directory", p.test_file, dir.display())),
                Err(_) => {
                    return Err(format!(
                        "-o {}: directory {} does not exist (create it first; iogauge, like IOR, does not create it)",
                        p.test_file,
                        dir.display()
                    ))
                }
            }
            if writes && !writable(&dir) {
                return Err(format!(
                    "-o {}: directory {} is not writable",
                    p.test_file,
                    dir.display()
                ));
            }
            checked_dirs.push(dir);
        }
        let exists = std::fs::symlink_metadata(&file).is_ok();
        if writes && exists && !overwrite && !p.use_existing_test_file {
            return Err(format!(
                "{} already exists; iogauge only overwrites files it created in this run: remove it, \
                 pass --overwrite to replace it, or -E to write into it",
                file.display()
            ));
        }
        if reads && !writes && !exists {
            return Err(format!(
                "{} does not exist: nothing to read (add -w to write it first)",
                file.display()
            ));
        }
    }
    if reads && !writes && !p.keep_file {
        out.warnings.push(
            "this run reads files it did not write, so it keeps them (IOR would delete them without -k)".to_string(),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = preflight(&p, 2, false, true).unwrap_err();
        assert!(e.contains("/nonexistent-iogauge/x does not exist"), "{e}");
        assert!(
            preflight(&p, 2, false, false).is_ok(),
            "dummy engines touch nothing"
        );
    }

    #[test]
    fn existing_file_needs_overwrite_or_e() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(d.path().join("f.00000001"), b"x").unwrap();
        let mut p = params(&f, true);
        let e = preflight(&p, 2, false, true).unwrap_err();
        assert!(e.contains("f.00000001 already exists"), "{e}");
        assert!(preflight(&p, 2, true, true).is_ok());
        p.use_existing_test_file = true;
        assert!(preflight(&p, 2, false, true).is_ok());
    }

    #[test]
    fn read_only_needs_the_files() {
        let d = tempfile::tempdir().unwrap();
        let mut p = params(&d.path().join("f"), false);
        p.write_file = false;
        assert!(preflight(&p, 2, false, true)
            .unwrap_err()
            .contains("does not exist"));
        std::fs::write(d.path().join("f"), b"x").unwrap();
        let ok = preflight(&p, 2, false, true).unwrap();
        assert_eq!(ok.warnings.len(), 1);
    }

    #[test]
    fn unique_dir_checks_the_parent_of_rank_dirs() {
        let d = tempfile::tempdir().unwrap();
        let mut p = params(&d.path().join("f"), true);
        p.unique_dir = true;
        assert!(preflight(&p, 3, false, true).is_ok());
    }
}
