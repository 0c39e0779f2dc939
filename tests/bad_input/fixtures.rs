//! The files the bad inputs point at: a plain file where a directory belongs, an unwritable
//! directory, broken `.ini` files, corrupt result documents, and a result store with one run.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{bin, tmp};

pub struct Fixtures {
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    /// The target directory every case points into (`DIR`).
    pub dir: PathBuf,
    /// `XDG_DATA_HOME` of every case: its default store holds one run.
    pub data_home: PathBuf,
    /// That store (`STORE`).
    pub store: PathBuf,
}

const TRUNCATED_INI: &str = "[global]\ndatadir = /tmp/x\n[ior-easy\n";
const UNKNOWN_KEY_INI: &str = "[global]\ndatadir = /tmp/x\nfrobnicate = 3\n";
const UNKNOWN_SECTION_INI: &str = "[global]\ndatadir = /tmp/x\n[nosuchsection]\nx = 1\n";
const BAD_VALUE_INI: &str = "[global]\ndatadir = /tmp/x\n[ior-easy]\ntransferSize = lots\n";
const NO_EQUALS_INI: &str = "[global]\ndatadir /tmp/x\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

impl Fixtures {
    pub fn new() -> Fixtures {
        let (d, home) = (tmp(), tmp());
        let dir = d.path().to_path_buf();
        // Others may enter (the unprivileged cases) but not write in `ro`.
        std::fs::set_permissions(&dir, PermissionsExt::from_mode(0o755)).unwrap();
        write(&dir, "afile", b"a user's file\n");
        std::fs::create_dir(dir.join("ro")).unwrap();
        std::fs::set_permissions(dir.join("ro"), PermissionsExt::from_mode(0o555)).unwrap();
        std::fs::create_dir(dir.join("empty")).unwrap();
        write(&dir, "truncated.ini", TRUNCATED_INI.as_bytes());
        write(&dir, "unknown-key.ini", UNKNOWN_KEY_INI.as_bytes());
        write(&dir, "unknown-section.ini", UNKNOWN_SECTION_INI.as_bytes());
        write(&dir, "bad-value.ini", BAD_VALUE_INI.as_bytes());
        write(&dir, "no-equals.ini", NO_EQUALS_INI.as_bytes());
        write(&dir, "binary.ini", b"\xff\xfe\x00[global]\n");
        write(&dir, "truncated.json", br#"{"schema_version": 1, "run": "#);
        write(&dir, "array.json", b"[1, 2, 3]");
        write(&dir, "binary.json", b"\xff\xfe\x00");
        write(
            &dir,
            "wrong-types.json",
            br#"{"schema_version": "one", "phases": 7}"#,
        );
        write(&dir, "future.json", br#"{"schema_version": 999999}"#);
        write(
            &dir,
            "result.txt",
            b"[RESULT] this is not an IO500 result line\n",
        );

        let data_home = home.path().to_path_buf();
        let store = data_home.join("iogauge").join("results.sqlite");
        // One run in the store: DUMMY touches no storage.
        let scratch = tmp();
        let out = Command::new(bin())
            .args(["ior", "-a", "DUMMY", "-t", "8", "-b", "8", "-o"])
            .arg(scratch.path().join("f"))
            .env("XDG_DATA_HOME", &data_home)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(store.is_file(), "the store fixture was not written");
        Fixtures {
            _dirs: (d, home),
            dir,
            data_home,
            store,
        }
    }
}

/// A command that runs the next program as `nobody` when we are root (root ignores
/// permissions), plain otherwise; None where that is not possible (the case is skipped).
pub fn unprivileged() -> Option<Command> {
    extern "C" {
        fn geteuid() -> u32;
    }
    if unsafe { geteuid() } != 0 {
        return Some(Command::new(bin()));
    }
    let probe = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("setpriv unavailable: the unwritable-path cases are skipped");
        return None;
    }
    let mut c = Command::new("setpriv");
    c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
    Some(c)
}
