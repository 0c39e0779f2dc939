//! Running the binary and reading what it left behind.

pub mod s3_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    #[track_caller]
    pub fn ok(self) -> Run {
        assert_eq!(
            self.code, 0,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
    #[track_caller]
    pub fn code(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// The binary under test. Every run it makes stores into a result store under the target
/// directory, never the user's (`XDG_DATA_HOME` for the processes the tests start).
pub fn bin() -> PathBuf {
    static DATA_HOME: std::sync::Once = std::sync::Once::new();
    DATA_HOME.call_once(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg-data");
        std::env::set_var("XDG_DATA_HOME", dir);
    });
    PathBuf::from(env!("CARGO_BIN_EXE_iogauge"))
}

fn finish(out: Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `iogauge <args>`, where `args` is split on whitespace.
pub fn iogauge(args: &str) -> Run {
    iogauge_args(&args.split_whitespace().collect::<Vec<_>>())
}

pub fn iogauge_args(args: &[&str]) -> Run {
    finish(
        Command::new(bin())
            .args(args)
            .output()
            .expect("run iogauge"),
    )
}

/// Sorted names of the entries of a directory.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

pub fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// A directory on /dev/shm when it exists (fast), else the default temp dir.
pub fn shm() -> tempfile::TempDir {
    if Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm").expect("shm temp dir")
    } else {
        tmp()
    }
}

/// `iogauge <args>` with extra environment variables.
#[cfg_attr(feature = "mpi", allow(dead_code))]
pub fn iogauge_env(args: &str, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(bin());
    c.args(args.split_whitespace());
    for (k, v) in env {
        c.env(k, v);
    }
    finish(c.output().expect("run iogauge"))
}

/// `timeout ... mpirun --oversubscribe -np <np>` with root allowed, ready for the program
/// (Open MPI's mpirun; `scripts/test.sh` installs it).
pub fn launcher(np: usize, limit_s: u64) -> Command {
    let mut c = Command::new("timeout");
    c.args(["--kill-after=10", &limit_s.to_string(), "mpirun"])
        .args(["--oversubscribe", "-np", &np.to_string()])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // Containers often forbid the cross-memory-attach copy; shared memory still works.
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    c
}

/// Every path under `dir`, relative and sorted (like `cd dir && find . | sort`).
pub fn tree(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, rel: &str, out: &mut Vec<String>) {
        for name in listing(&base.join(rel)) {
            let r = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            out.push(r.clone());
            if base.join(&r).is_dir() {
                walk(base, &r, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

/// `iogauge <line>` with `--db DB` appended (after the workload's own options, as a user may).
pub fn with_db(db: &Path, line: &str) -> Run {
    let mut args: Vec<String> = line.split_whitespace().map(String::from).collect();
    args.push("--db".into());
    args.push(db.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    iogauge_args(&args)
}

/// The id in `stored as run N: iogauge report N`, the last line of a stored run (checked whole).
pub fn stored_id(r: &Run) -> i64 {
    let line = r.stderr.lines().last().unwrap_or_default();
    let rest = line
        .strip_prefix("stored as run ")
        .unwrap_or_else(|| panic!("no closing line:\n{}", r.stderr));
    let (id, tail) = rest.split_once(':').unwrap();
    assert_eq!(tail, format!(" iogauge report {id}"));
    id.parse().unwrap()
}
