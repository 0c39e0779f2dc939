//! The real S3 server of the tests: Ceph's RADOS Gateway, started by `scripts/s3-server.sh`
//! in a folder of the test's and stopped when the [`Server`] is dropped. As root the script
//! installs Debian's packages when they are missing; elsewhere without them [`Server::start`]
//! says so and gives `None`, and the test passes without it. Shared by the client's tests
//! (crates/s3) and the binary's (tests/s3).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Server {
    dir: tempfile::TempDir,
    /// `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`.
    pub vars: HashMap<String, String>,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(
        if Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scripts")
            .is_dir()
        {
            "scripts/s3-server.sh"
        } else {
            "../../scripts/s3-server.sh"
        },
    )
}

impl Server {
    /// A server of its own, or `None` where it cannot run (not root, no packages).
    pub fn start() -> Option<Server> {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(dir.path())
            .output()
            .expect("bash");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            if stderr.contains("run as root") {
                eprintln!("skipped: {stderr}");
                return None;
            }
            panic!("s3-server.sh start failed:\n{stderr}");
        }
        let vars = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Some(Server { dir, vars })
    }

    /// The server's own admin tool (`radosgw-admin`) on its cluster, with `args`; its stdout.
    pub fn admin(&self, args: &[&str]) -> String {
        let conf = self.dir.path().join("ceph.conf");
        let out = Command::new("radosgw-admin")
            .arg("-c")
            .arg(conf)
            .args(args)
            .output()
            .expect("radosgw-admin");
        assert!(
            out.status.success(),
            "radosgw-admin {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn var(&self, name: &str) -> &str {
        &self.vars[name]
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(self.dir.path())
            .status();
    }
}
