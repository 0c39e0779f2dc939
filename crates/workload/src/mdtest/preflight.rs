//! Checks against the file system before any I/O, so bad input ends with exit code 2 and
//! nothing touched. mdtest creates only the last component of `-d`. A test directory an
//! earlier run left is used as it is, as mdtest does (`leftover` handles what is in it); a
//! test-directory name that is anything but a directory (a file, a symlink, a device) was not
//! left by a run and is refused, and stat, read or remove need the test directories to exist.
//! The engine answers (`target_info`, `lstat`); the `-x` status file is iogauge's own and is
//! read from the local file system.

use std::path::{Path, PathBuf};

use engine::{Engine, FileKind, TargetInfo};

use super::naming::test_dir_name;
use super::tree::Shape;
use crate::file_kind::describe;
use plan::mdtest::MdtestParams;

#[derive(Debug, Default)]
pub struct Preflight {
    pub warnings: Vec<String>,
    /// Items per task from the `-x` status file, for runs without a create phase.
    pub status_items: Option<u64>,
}

/// What `engine` says about `dir`; nothing there when it cannot say.
fn facts(engine: &dyn Engine, dir: &Path) -> TargetInfo {
    engine.target_info(engine.target(dir)).unwrap_or_default()
}

fn parent_of(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What the phases other than create would do in a directory, for messages.
fn verbs(p: &MdtestParams) -> &'static str {
    let ph = &p.phases;
    match (ph.stat || ph.rename, ph.read, ph.remove) {
        (_, _, true) => "remove",
        (_, true, _) => "read",
        _ => "stat",
    }
}

/// Asks `engine` (rank 0's); one that touches no files (`Caps::does_io` false) skips the
/// directory checks.
pub fn preflight(
    p: &MdtestParams,
    shape: &Shape,
    engine: &dyn Engine,
) -> Result<Preflight, String> {
    let mut out = Preflight::default();
    let create = p.phases.create;
    if let (Some(file), false) = (&p.status_file, create) {
        out.status_items = read_status(file, shape, &mut out.warnings)?;
    }
    if !engine.caps().does_io {
        return Ok(out);
    }
    let object = engine.caps().object.is_some();
    for dir in &p.dirs {
        // What only the storage can answer (an object store: the credentials, the bucket).
        engine::check_target(&p.engine, &engine::IoShape::default(), dir, dir)?;
        let at = facts(engine, dir);
        match at {
            _ if at.is_dir => {
                if create && !at.writable {
                    return Err(format!(
                        "-d {}: the directory is not writable",
                        dir.display()
                    ));
                }
            }
            _ if at.exists => return Err(format!("-d {}: not a directory", dir.display())),
            // A key prefix needs nothing made before it.
            _ if create && object => continue,
            _ if create => {
                let parent = parent_of(dir);
                let above = facts(engine, &parent);
                if !above.is_dir {
                    return Err(format!(
                        "-d {}: the parent directory {} does not exist (iogauge, like mdtest, \
                         creates only the last component)",
                        dir.display(),
                        parent.display()
                    ));
                }
                if !above.writable {
                    return Err(format!(
                        "-d {}: cannot create it, {} is not writable",
                        dir.display(),
                        parent.display()
                    ));
                }
                continue;
            }
            _ => {
                return Err(format!(
                    "-d {} does not exist: nothing to {} (run a create phase first, e.g. -C)",
                    dir.display(),
                    verbs(p)
                ))
            }
        }
        check_test_dirs(p, shape, dir, engine)?;
    }
    Ok(out)
}

/// Test directories must be real directories where they exist (an earlier run's are used as
/// they are), and must exist for a run without a create phase.
fn check_test_dirs(
    p: &MdtestParams,
    shape: &Shape,
    dir: &Path,
    engine: &dyn Engine,
) -> Result<(), String> {
    for iteration in 0..p.iterations {
        for l in 0..shape.loops {
            let t = dir.join(test_dir_name(iteration, l));
            match engine.lstat(engine.target(&t)) {
                Ok(m) if m.kind == FileKind::Dir => {}
                Ok(m) => {
                    return Err(format!(
                        "{} exists and is {}, not a directory: no mdtest run leaves that, and \
                         iogauge does not work through it (remove or rename it, or use another \
                         -d)",
                        t.display(),
                        describe(m.kind)
                    ))
                }
                Err(_) if p.phases.create => {}
                Err(_) => {
                    return Err(format!(
                        "{} does not exist: nothing to {} (run the create phase first, e.g. -C, \
                         with the same -d, -i, -n, -I)",
                        t.display(),
                        verbs(p)
                    ))
                }
            }
        }
    }
    Ok(())
}

/// mdtest's `ReadStoneWallingIterations`: a missing or unreadable file means "all items", with
/// a warning; a count above what the command line configures cannot be right.
fn read_status(
    file: &Path,
    shape: &Shape,
    warnings: &mut Vec<String>,
) -> Result<Option<u64>, String> {
    let full = shape.items_per_rank().unwrap_or(u64::MAX);
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            warnings.push(format!(
                "cannot read the stonewall status file -x {} ({e}): using all {full} items per task",
                file.display()
            ));
            return Ok(None);
        }
    };
    let Ok(n) = text.trim().parse::<u64>() else {
        warnings.push(format!(
            "-x {}: {:?} is not an item count: using all {full} items per task",
            file.display(),
            text.trim()
        ));
        return Ok(None);
    };
    if n > full {
        return Err(format!(
            "-x {} holds {n} items per task, more than the {full} this command line configures: \
             use the -n/-I/-z/-b of the run that wrote it",
            file.display()
        ));
    }
    Ok(Some(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DummyEngine, PosixEngine};
    use plan::mdtest::Phases;

    static POSIX: PosixEngine = PosixEngine::new(false);

    fn params(d: &Path, create: bool) -> (MdtestParams, Shape) {
        let p = MdtestParams {
            dirs: vec![d.to_path_buf()],
            items: 10,
            phases: Phases {
                create,
                stat: true,
                ..Phases::default()
            },
            ..MdtestParams::default()
        };
        let shape = Shape::resolve(10, 0, crate::mdtest::Tree::of(&p), false, false).unwrap();
        (p, shape)
    }

    #[test]
    fn missing_parent_is_refused_and_dummy_skips() {
        let (p, s) = params(Path::new("/nonexistent-iogauge/a/md"), true);
        let e = preflight(&p, &s, &POSIX).unwrap_err();
        assert!(
            e.contains("parent directory /nonexistent-iogauge/a does not exist"),
            "{e}"
        );
        assert!(preflight(&p, &s, &DummyEngine::new(Default::default(), 0)).is_ok());
    }

    #[test]
    fn an_earlier_runs_test_dir_is_used_and_stat_needs_one() {
        let d = tempfile::tempdir().unwrap();
        let (p, s) = params(d.path(), true);
        assert!(preflight(&p, &s, &POSIX).is_ok());
        let (q, _) = params(d.path(), false);
        let e = preflight(&q, &s, &POSIX).unwrap_err();
        assert!(
            e.contains("test-dir.0-0 does not exist: nothing to stat"),
            "{e}"
        );
        std::fs::create_dir(d.path().join("test-dir.0-0")).unwrap();
        assert!(preflight(&q, &s, &POSIX).is_ok());
        // mdtest goes on in a test directory that exists.
        assert!(preflight(&p, &s, &POSIX).is_ok());
        let (q, _) = params(&d.path().join("missing"), false);
        assert!(preflight(&q, &s, &POSIX)
            .unwrap_err()
            .contains("does not exist: nothing to stat"));
    }

    #[test]
    fn a_test_dir_name_that_is_not_a_directory_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("test-dir.0-0");
        let elsewhere = tempfile::tempdir().unwrap();
        let cases: [(&str, &dyn Fn()); 2] = [
            ("a regular file", &|| std::fs::write(&t, b"mine").unwrap()),
            ("a symbolic link", &|| {
                std::os::unix::fs::symlink(elsewhere.path(), &t).unwrap()
            }),
        ];
        for (kind, make) in cases {
            make();
            for create in [true, false] {
                let (p, s) = params(d.path(), create);
                let e = preflight(&p, &s, &POSIX).unwrap_err();
                assert!(
                    e.contains(&format!(
                        "test-dir.0-0 exists and is {kind}, not a directory"
                    )),
                    "{e}"
                );
            }
            std::fs::remove_file(&t).unwrap();
        }
        let (p, s) = params(d.path(), true);
        assert!(preflight(&p, &s, &POSIX).is_ok());
    }

    #[test]
    fn status_file_counts() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("test-dir.0-0")).unwrap();
        let (mut p, s) = params(d.path(), false);
        let sw = d.path().join("sw");
        p.status_file = Some(sw.clone());
        let pre = preflight(&p, &s, &POSIX).unwrap();
        assert_eq!((pre.status_items, pre.warnings.len()), (None, 1));
        std::fs::write(&sw, "7").unwrap();
        assert_eq!(preflight(&p, &s, &POSIX).unwrap().status_items, Some(7));
        std::fs::write(&sw, "11").unwrap();
        assert!(preflight(&p, &s, &POSIX)
            .unwrap_err()
            .contains("holds 11 items per task"));
        std::fs::write(&sw, "x").unwrap();
        assert_eq!(
            preflight(&p, &s, &DummyEngine::new(Default::default(), 0))
                .unwrap()
                .warnings
                .len(),
            1
        );
    }
}
