//! Checks against the file system before any I/O, so bad input ends with exit status 2 and
//! nothing touched: where `-o` is, the data sets of the ranks, and the run-info file a run
//! without the precreate starts from. A name of this run's layout that is a file or a
//! symbolic link was not left by a run and is refused; a data set an earlier precreate left
//! is refused for a new precreate (md-workbench aborts on it) unless
//! `--ignore-precreate-errors` counts the failed mkdir and reuses it. The engine answers
//! about `-o` and the data sets; the run-info file is iogauge's own, on the local file system.

use std::path::{Path, PathBuf};

use engine::{Engine, FileKind};

use super::naming::set_dir;
use super::status::{self, Position};
use crate::file_kind::describe;
use plan::mdworkbench::MdWorkbenchParams;

#[derive(Debug, Default)]
pub struct Preflight {
    pub warnings: Vec<String>,
    /// Where the run starts (`--start-item`, the run-info file, or 0) and whether an earlier
    /// precreate made `-o`.
    pub start: Position,
}

fn parent_of(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Asks `engine` (rank 0's); one that touches no files (`Caps::does_io` false) skips the
/// directory checks.
pub fn preflight(
    p: &MdWorkbenchParams,
    ranks: u64,
    engine: &dyn Engine,
) -> Result<Preflight, String> {
    let mut out = Preflight::default();
    let ph = &p.phases;
    if !ph.precreate && (ph.benchmark || ph.cleanup) {
        // md-workbench reads the file even with --start-item; iogauge then needs it only for
        // the note that the precreate made -o.
        match (status::read(&p.run_info_file), p.start_item) {
            (Ok(pos), _) => out.start = pos,
            (Err(_), Some(_)) => {}
            (Err(e), None) => return Err(e),
        }
    }
    if let Some(s) = p.start_item {
        out.start.pos = s;
    }
    if engine.caps().does_io {
        // What only the storage can answer (an object store: the credentials, the bucket).
        engine::check_target(&p.engine, &engine::IoShape::default(), &p.dir, &p.dir)?;
        check_dir(p, engine)?;
        if is_dir(engine, &p.dir) {
            check_sets(p, ranks, engine)?;
        }
    }
    Ok(out)
}

/// A run without the cleanup writes the run-info file: its directory must exist.
pub fn run_info_dir(p: &MdWorkbenchParams) -> Result<(), String> {
    let dir = parent_of(&p.run_info_file);
    if p.phases.cleanup || dir.is_dir() {
        return Ok(());
    }
    Err(format!(
        "--run-info-file {}: directory {} does not exist",
        p.run_info_file.display(),
        dir.display()
    ))
}

/// `path` is a directory (a final symbolic link followed), as `engine` sees it.
fn is_dir(engine: &dyn Engine, path: &Path) -> bool {
    engine
        .target_info(engine.target(path))
        .is_ok_and(|at| at.is_dir)
}

/// `-o`: a directory, or (for a precreate) a name whose parent exists.
fn check_dir(p: &MdWorkbenchParams, engine: &dyn Engine) -> Result<(), String> {
    let dir = &p.dir;
    let at = engine.target_info(engine.target(dir)).unwrap_or_default();
    match at {
        _ if at.is_dir => Ok(()),
        _ if at.exists => Err(format!("-o {}: not a directory", dir.display())),
        // A key prefix needs nothing made before it.
        _ if p.phases.precreate && engine.caps().object.is_some() => Ok(()),
        _ if p.phases.precreate => {
            let parent = parent_of(dir);
            if is_dir(engine, &parent) {
                Ok(())
            } else {
                Err(format!(
                    "-o {}: the parent directory {} does not exist (iogauge, like md-workbench, \
                     creates only the last component)",
                    dir.display(),
                    parent.display()
                ))
            }
        }
        _ => Err(format!(
            "-o {} does not exist: nothing to {} (run the precreate, -1, first)",
            dir.display(),
            if p.phases.benchmark {
                "benchmark"
            } else {
                "clean up"
            }
        )),
    }
}

/// The data sets of every rank: real directories where they exist; absent for a precreate
/// (unless `--ignore-precreate-errors`), present for a benchmark without one.
fn check_sets(p: &MdWorkbenchParams, ranks: u64, engine: &dyn Engine) -> Result<(), String> {
    let ph = &p.phases;
    for rank in 0..ranks {
        for set in 0..p.data_sets {
            let d = set_dir(&p.dir, rank, set);
            match engine.lstat(engine.target(&d)) {
                Ok(m) if m.kind != FileKind::Dir => {
                    return Err(format!(
                        "{} exists and is {}, not a data set directory: no md-workbench run \
                         leaves that, and iogauge does not work through it (remove it or use \
                         another -o)",
                        d.display(),
                        describe(m.kind)
                    ))
                }
                Ok(_) if ph.precreate && !p.ignore_precreate_errors => {
                    return Err(format!(
                        "{}: the data set exists already (an earlier run's; md-workbench stops \
                         on it): run its cleanup (-3) or use another -o; \
                         --ignore-precreate-errors counts the failed mkdir and reuses it",
                        d.display()
                    ))
                }
                Err(_) if ph.benchmark && !ph.precreate => {
                    return Err(format!(
                        "{}: no such data set: nothing to benchmark (run the precreate, -1, \
                         with the same -o, -D and number of ranks first)",
                        d.display()
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DummyEngine, PosixEngine};
    use plan::mdworkbench::Phases;

    static POSIX: PosixEngine = PosixEngine::new(false);

    fn only(precreate: bool, benchmark: bool, cleanup: bool) -> Phases {
        Phases {
            precreate,
            benchmark,
            cleanup,
        }
    }

    #[test]
    fn layout_and_position_checks() {
        let t = tempfile::tempdir().unwrap();
        let mut p = MdWorkbenchParams {
            dir: t.path().join("out"),
            data_sets: 2,
            run_info_file: t.path().join("st"),
            ..Default::default()
        };
        assert_eq!(preflight(&p, 2, &POSIX).unwrap().start, Position::default());
        p.dir = t.path().join("no/out");
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .contains("parent directory"));
        assert!(
            preflight(&p, 2, &DummyEngine::new(Default::default(), 0)).is_ok(),
            "no directory checks for DUMMY"
        );
        p.dir = t.path().join("out");
        std::fs::create_dir_all(p.dir.join("1_1")).unwrap();
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .contains("1_1: the data set exists"));
        p.ignore_precreate_errors = true;
        assert!(preflight(&p, 2, &POSIX).is_ok());
        std::fs::write(p.dir.join("0_0"), b"").unwrap();
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .contains("is a regular file"));
        std::fs::remove_file(p.dir.join("0_0")).unwrap();

        p.phases = only(false, true, false);
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .starts_with("--run-info-file"));
        status::write(
            &p.run_info_file,
            Position {
                pos: 7,
                made_dir: true,
            },
        )
        .unwrap();
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .contains("0_0: no such data set"));
        std::fs::create_dir_all(p.dir.join("0_0")).unwrap();
        std::fs::create_dir_all(p.dir.join("0_1")).unwrap();
        std::fs::create_dir_all(p.dir.join("1_0")).unwrap();
        let pre = preflight(&p, 2, &POSIX).unwrap();
        assert_eq!(
            pre.start,
            Position {
                pos: 7,
                made_dir: true
            }
        );
        p.start_item = Some(3);
        assert_eq!(preflight(&p, 2, &POSIX).unwrap().start.pos, 3);
        p.phases = only(false, false, true);
        p.dir = t.path().join("gone");
        assert!(preflight(&p, 2, &POSIX)
            .unwrap_err()
            .contains("nothing to clean up"));
        p.phases = only(true, false, false);
        p.run_info_file = t.path().join("no/st");
        assert!(run_info_dir(&p).unwrap_err().contains("directory"));
        p.phases = only(true, false, true);
        assert!(
            run_info_dir(&p).is_ok(),
            "a run with the cleanup writes none"
        );
    }
}
