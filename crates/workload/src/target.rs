//! Where a workload may create and remove a whole tree of its own (mdtest's `-d`, the IO500's
//! data directory, and the directory option of every workload whose registry row says it
//! makes one, `Supports::root_target`): never `/`, the user's home or the root of a mounted
//! file system, unless `--allow-root-target` says so. There the tree would sit among other
//! users' files, and a mistyped path is the likeliest way a benchmark hurts someone. Every
//! such workload calls [`check_tree_root`] before any I/O.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why `dir` is no place for a run's tree, or `None`. A path that does not exist yet is
/// fine (the run creates it, so it cannot be any of these).
pub fn refusal_reason(dir: &Path) -> Option<String> {
    let real = std::fs::canonicalize(dir).ok()?;
    if real == Path::new("/") {
        return Some("is the root directory".to_string());
    }
    let home = std::env::var_os("HOME").and_then(|h| std::fs::canonicalize(h).ok());
    if home.as_deref() == Some(real.as_path()) {
        return Some("is the home directory ($HOME)".to_string());
    }
    let mounts = results::read_mounts();
    if let Some(m) = mounts.iter().find(|m| Path::new(&m.mount_point) == real) {
        return Some(format!(
            "is the root of a mounted file system ({})",
            m.fs_type
        ));
    }
    // Without /proc: a directory on another device than its parent is a mount's root.
    let parent = real.parent().unwrap_or(Path::new("/"));
    let dev = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).ok();
    if mounts.is_empty() && dev(&real).is_some() && dev(&real) != dev(parent) {
        return Some("is the root of a mounted file system".to_string());
    }
    None
}

/// `Err` with the message for exit status 2 when `dir` (given as `option`, e.g. `-d`) is
/// `/`, `$HOME` or a mount point's root and `allow` (`--allow-root-target`) is not set.
pub fn check_tree_root(option: &str, dir: &Path, allow: bool) -> Result<(), String> {
    if allow {
        return Ok(());
    }
    let Some(why) = refusal_reason(dir) else {
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

    #[test]
    fn root_home_and_mount_points_are_refused() {
        assert!(check_tree_root("-d", Path::new("/"), false)
            .unwrap_err()
            .contains("-d /: is the root directory"));
        assert!(check_tree_root("-d", Path::new("/"), true).is_ok());
        assert!(
            refusal_reason(Path::new("/proc")).is_some(),
            "a mount point"
        );
        if let Some(home) = std::env::var_os("HOME").filter(|h| Path::new(h).is_dir()) {
            assert!(refusal_reason(Path::new(&home)).is_some());
        }
        let d = tempfile::tempdir().unwrap();
        assert_eq!(refusal_reason(d.path()), None);
        assert_eq!(refusal_reason(&d.path().join("not-yet")), None);
    }
}
