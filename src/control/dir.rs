//! Where the control sockets live, and whether that place is safe to use: a directory of this
//! user's own, mode 0700, because `bind` makes a socket that anyone may connect to
//! (docs/system-groundwork.md §5).

use std::fs::DirBuilder;
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// `sun_path` in `struct sockaddr_un`: the path and its final NUL.
pub const SUN_PATH_MAX: usize = 108;

/// This process's effective user id.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The directory for this user: `$XDG_RUNTIME_DIR/iogauge`, else `<temp>/iogauge-<euid>`.
pub fn base() -> PathBuf {
    choose(
        std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from),
        &std::env::temp_dir(),
        euid(),
    )
}

/// [`base`] from its inputs. A relative `XDG_RUNTIME_DIR` is ignored, as the XDG spec asks.
pub fn choose(xdg_runtime: Option<PathBuf>, temp: &Path, euid: u32) -> PathBuf {
    match xdg_runtime.filter(|p| p.is_absolute()) {
        Some(runtime) => runtime.join("iogauge"),
        None => temp.join(format!("iogauge-{euid}")),
    }
}

/// Makes `dir` (mode 0700; one that exists is kept) and checks it ([`check`]).
pub fn ensure(dir: &Path) -> Result<(), String> {
    match DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    check(dir)
}

/// `dir` as it is on disk (not following a link) passes [`judge`].
pub fn check(dir: &Path) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let facts = Facts {
        symlink: meta.file_type().is_symlink(),
        dir: meta.is_dir(),
        uid: meta.uid(),
        mode: meta.mode() & 0o7777,
    };
    judge(dir, &facts, euid())
}

/// What [`judge`] looks at: `lstat`'s answer.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub symlink: bool,
    pub dir: bool,
    pub uid: u32,
    pub mode: u32,
}

/// A directory, not a link, owned by `euid`, with no access for group or others. Another user
/// may have made it first in a shared /tmp; then it is refused, never used.
pub fn judge(dir: &Path, f: &Facts, euid: u32) -> Result<(), String> {
    let d = dir.display();
    if f.symlink {
        return Err(format!(
            "{d} is a symbolic link; it must be a directory of this user's own (mode 0700)"
        ));
    }
    if !f.dir {
        return Err(format!("{d} is not a directory"));
    }
    if f.uid != euid {
        return Err(format!(
            "{d} belongs to uid {}, not to this user (uid {euid}); remove it or set \
             XDG_RUNTIME_DIR",
            f.uid
        ));
    }
    if f.mode & 0o077 != 0 {
        return Err(format!(
            "{d} has mode {:04o}: other users can reach it; it must be 0700 (chmod 700 {d})",
            f.mode
        ));
    }
    Ok(())
}

/// `<dir>/<pid>.sock`, if it fits in `sun_path`.
pub fn socket_path(dir: &Path, pid: u32) -> Result<PathBuf, String> {
    let path = dir.join(format!("{pid}.sock"));
    let len = path.as_os_str().len();
    if len >= SUN_PATH_MAX {
        return Err(format!(
            "the socket path {} is {len} bytes, and a Unix socket's path holds at most {} \
             (sun_path is {SUN_PATH_MAX} bytes with its final NUL); set XDG_RUNTIME_DIR or \
             TMPDIR to a shorter directory",
            path.display(),
            SUN_PATH_MAX - 1
        ));
    }
    Ok(path)
}

/// The pid of a socket's file name `<pid>.sock`.
pub fn socket_pid(file_name: &str) -> Option<u32> {
    digits(file_name.strip_suffix(".sock")?)
}

/// The pid `--run` names: a pid, or a run id `{workload}-{utc}-{pid}`.
pub fn run_pid(id: &str) -> Option<u32> {
    digits(id).or_else(|| digits(id.rsplit_once('-')?.1))
}

/// A plain decimal number (`u32::from_str` would take `+12`).
fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_runtime_dir_when_absolute_else_a_per_user_temp_dir() {
        let tmp = Path::new("/tmp");
        assert_eq!(
            choose(Some("/run/user/7".into()), tmp, 7),
            Path::new("/run/user/7/iogauge")
        );
        assert_eq!(choose(None, tmp, 0), Path::new("/tmp/iogauge-0"));
        assert_eq!(choose(Some("".into()), tmp, 5), Path::new("/tmp/iogauge-5"));
        assert_eq!(
            choose(Some("rel".into()), tmp, 5),
            Path::new("/tmp/iogauge-5")
        );
    }

    #[test]
    fn only_a_private_directory_of_ours_passes() {
        let d = Path::new("/x");
        let ok = Facts {
            symlink: false,
            dir: true,
            uid: 1000,
            mode: 0o700,
        };
        assert!(judge(d, &ok, 1000).is_ok());
        let refused = |f: Facts| judge(d, &f, 1000).unwrap_err();
        assert!(refused(Facts {
            symlink: true,
            ..ok
        })
        .contains("symbolic link"));
        assert!(refused(Facts { dir: false, ..ok }).contains("not a directory"));
        assert!(refused(Facts { uid: 0, ..ok }).contains("belongs to uid 0"));
        let open = refused(Facts { mode: 0o755, ..ok });
        assert!(
            open.contains("mode 0755") && open.contains("chmod 700 /x"),
            "{open}"
        );
        assert!(refused(Facts { mode: 0o701, ..ok }).contains("0701"));
    }

    #[test]
    fn ensure_makes_0700_and_refuses_an_open_dir_or_a_link() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("iogauge");
        ensure(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        ensure(&dir).expect("an existing private directory is kept");

        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(ensure(&dir).unwrap_err().contains("mode 0755"));

        let link = t.path().join("link");
        std::os::unix::fs::symlink(t.path(), &link).unwrap();
        assert!(ensure(&link).unwrap_err().contains("symbolic link"));
    }

    #[test]
    fn the_socket_path_must_fit_sun_path() {
        let short = socket_path(Path::new("/tmp/iogauge-0"), 42).unwrap();
        assert_eq!(short, Path::new("/tmp/iogauge-0/42.sock"));
        let long = Path::new("/").join("d".repeat(100));
        let e = socket_path(&long, 4_000_000).unwrap_err();
        assert!(e.contains("at most 107") && e.contains("108"), "{e}");
    }

    #[test]
    fn pids_of_socket_names_and_run_ids() {
        assert_eq!(socket_pid("1234.sock"), Some(1234));
        assert_eq!(socket_pid("+12.sock"), None);
        assert_eq!(socket_pid("12.sock.tmp"), None);
        assert_eq!(socket_pid(".sock"), None);
        assert_eq!(socket_pid("1234"), None);
        assert_eq!(run_pid("4321"), Some(4321));
        assert_eq!(run_pid("ior-20261127T213222Z-4321"), Some(4321));
        assert_eq!(run_pid("md-workbench-20261127T213222Z-7"), Some(7));
        assert_eq!(run_pid("ior-20261127T213222Z-"), None);
        assert_eq!(run_pid("ior"), None);
        assert_eq!(run_pid(""), None);
        assert_eq!(run_pid("99999999999"), None);
    }
}
