//! Where a workload may create and remove a whole tree of its own (mdtest's `-d`, the IO500's
//! data directory, and the directory option of every workload whose registry row says it
//! makes one, `Supports::root_target`): never `/`, the user's home or the root of a mounted
//! file system, unless `--allow-root-target` says so. There the tree would sit among other
//! users' files, and a mistyped path is the likeliest way a benchmark hurts someone. Every
//! such workload calls [`check_tree_root`] before any I/O.

use std::path::{Path, PathBuf};

use engine::{Engine, Target};

/// Why `dir` is no place for a run's tree, as `engine` sees it, or `None`. A path that does
/// not exist yet is fine (the run creates it, so it cannot be any of these).
pub fn refusal_reason(dir: &Path, engine: &dyn Engine) -> Option<String> {
    let facts = engine.target_info(Target::from(dir)).ok()?;
    let real = facts.resolved.as_deref()?;
    if real == Path::new("/") {
        return Some("is the root directory".to_string());
    }
    let home = std::env::var_os("HOME")
        .and_then(|h| engine.target_info(Target::from(Path::new(&h))).ok())
        .and_then(|h| h.resolved);
    if home.as_deref() == Some(real) {
        return Some("is the home directory ($HOME)".to_string());
    }
    if !facts.mount_root {
        return None;
    }
    // The type is known where the mount table is (/proc); without it, the engine found the
    // directory on another device than its parent.
    Some(match (&facts.mount_point, &facts.fs_type) {
        (Some(_), Some(fs_type)) => {
            format!("is the root of a mounted file system ({fs_type})")
        }
        _ => "is the root of a mounted file system".to_string(),
    })
}

/// `Err` with the message for exit status 2 when `dir` (given as `option`, e.g. `-d`) is
/// `/`, `$HOME` or a mount point's root, as `engine` sees it, and `allow`
/// (`--allow-root-target`) is not set.
pub fn check_tree_root(
    option: &str,
    dir: &Path,
    allow: bool,
    engine: &dyn Engine,
) -> Result<(), String> {
    if allow {
        return Ok(());
    }
    let Some(why) = refusal_reason(dir, engine) else {
        return Ok(());
    };
    let below: PathBuf = dir.join("iogauge");
    Err(format!(
        "{option} {}: {why}; a run creates and removes its tree there, among files that are \
         not its own: name a directory below it (e.g. {}), or give --allow-root-target",
        dir.display(),
        below.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DummyEngine, PosixEngine};

    #[test]
    fn root_home_and_mount_points_are_refused() {
        let posix = &PosixEngine::new(false);
        assert!(check_tree_root("-d", Path::new("/"), false, posix)
            .unwrap_err()
            .contains("-d /: is the root directory"));
        assert!(check_tree_root("-d", Path::new("/"), true, posix).is_ok());
        assert!(
            refusal_reason(Path::new("/proc"), posix).is_some(),
            "a mount point"
        );
        if let Some(home) = std::env::var_os("HOME").filter(|h| Path::new(h).is_dir()) {
            assert!(refusal_reason(Path::new(&home), posix).is_some());
        }
        let d = tempfile::tempdir().unwrap();
        assert_eq!(refusal_reason(d.path(), posix), None);
        assert_eq!(refusal_reason(&d.path().join("not-yet"), posix), None);
        // An engine that makes nothing there has nothing to refuse.
        let dummy = &DummyEngine::new(Default::default(), 0);
        assert_eq!(refusal_reason(Path::new("/"), dummy), None);
    }
}
