//! `iogauge ior`, `mdtest` and `md-workbench` with `-a S3` against a real S3 server (RADOS Gateway, `scripts/s3-server.sh`),
//! started once for the module's one test: objects per rank and one shared object written in
//! parts with verification, what a run leaves on the server (checked with the server's own
//! `radosgw-admin`, a second client), the refusals that need the server, and that the secret
//! key appears in nothing the run writes.

mod bad_input;
mod failure;
mod libs3;
mod metadata;
#[path = "../../crates/s3/tests/support/proxy.rs"]
mod proxy;
mod requests;
mod secret;

use std::collections::HashMap;
use std::process::Command;

use crate::common::s3_server::Server;
use crate::common::{bin, json, tmp, Run};

/// `iogauge <args>` with the server's variables and none of the user's AWS settings.
pub fn run(server: &Server, args: &str, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(bin());
    c.args(args.split_whitespace());
    clean_env(&mut c, &server.vars);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("run iogauge");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The AWS variables of `vars` only: no profile or credentials file of the user's.
pub fn clean_env(c: &mut Command, vars: &HashMap<String, String>) {
    for k in [
        "AWS_PROFILE",
        "AWS_SESSION_TOKEN",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_DEFAULT_REGION",
    ] {
        c.env_remove(k);
    }
    c.env("HOME", "/nonexistent-iogauge-home");
    for (k, v) in vars {
        c.env(k, v);
    }
}

/// The keys in `bucket`, as the server's own tool lists them; `None` when there is no such
/// bucket.
pub fn objects(server: &Server, bucket: &str) -> Option<Vec<(String, u64)>> {
    let buckets = server.admin(&["bucket", "list"]);
    let names: Vec<String> = serde_json::from_str(&buckets).unwrap();
    if !names.iter().any(|n| n == bucket) {
        return None;
    }
    let listing = server.admin(&["bucket", "list", &format!("--bucket={bucket}")]);
    let entries: Vec<serde_json::Value> = serde_json::from_str(&listing).unwrap();
    Some(
        entries
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap_or_default().to_string(),
                    e["meta"]["size"].as_u64().unwrap_or(0),
                )
            })
            .collect(),
    )
}

#[test]
fn ior_against_radosgw() {
    let Some(server) = Server::start() else {
        return;
    };
    objects_per_rank(&server);
    shared_object(&server);
    at_depth(&server);
    requests::counted_per_phase(&server);
    libs3::iors_layout(&server);
    failure::nothing_left_behind(&server);
    #[cfg(feature = "mpi")]
    shared_object_under_mpi(&server);
    metadata::mdtest_and_md_workbench(&server);
    bad_input::refused_with_the_server(&server);
    secret::never_written(&server);
}

/// `-F`: one object per rank as IOR names its files, each written in two parts and read back
/// with another rank's data (-C); the run made the bucket and leaves none.
fn objects_per_rank(server: &Server) {
    let out = tmp();
    let doc = out.path().join("r.json");
    let r = run(
        server,
        &format!(
            "ior -a S3 --s3.bucket iog-fpp -N 2 -t 5m -b 10m -F -C -e -w -r -W -R -o dir/f --json {}",
            doc.display()
        ),
        &[],
    )
    .ok();
    assert!(
        r.stdout.contains("api                 : S3"),
        "{}",
        r.stdout
    );
    let v = json(&doc);
    let phases = v["phases"].as_array().unwrap();
    for op in ["write", "read"] {
        let p = phases.iter().find(|p| p["operation"] == op).unwrap();
        assert_eq!(p["bytes"], 2 * 10 * 1024 * 1024, "{p}");
        assert_eq!(p["ops"], 4, "{p}");
    }
    let checks: Vec<&serde_json::Value> = phases
        .iter()
        .filter(|p| !p["verification"].is_null())
        .collect();
    assert!(!checks.is_empty());
    for p in checks {
        assert_eq!(p["verification"]["errors"], 0, "{p}");
    }
    assert_eq!(
        v["environment"]["target"]["fs_type"], "s3",
        "{}",
        v["environment"]
    );
    assert_eq!(
        objects(server, "iog-fpp"),
        None,
        "the bucket this run made is gone"
    );
}

/// One object of 3 ranks × 2 segments × 5 MiB (6 parts from three ranks), kept with -k and
/// checked on the server; a second, read-only run verifies it and removes it (IOR removes
/// the test file after a read without -k); the bucket, made by the first run, stays with a
/// warning while it holds the kept object.
fn shared_object(server: &Server) {
    let line = "ior -a S3 --s3.bucket iog-shared -N 3 -t 5m -b 5m -s 2 -G 7 -o one/object";
    let r = run(server, &format!("{line} -w -W -k -e"), &[]).ok();
    assert!(
        r.stderr
            .contains("kept bucket iog-shared, which this run made"),
        "{}",
        r.stderr
    );
    let listed = objects(server, "iog-shared").unwrap();
    assert_eq!(listed, [("one/object".to_string(), 30 << 20)]);
    run(server, &format!("{line} -r -R -C"), &[]).ok();
    assert_eq!(objects(server, "iog-shared").unwrap(), []);
    server.admin(&["bucket", "rm", "--bucket=iog-shared"]);
}

/// The shared object's upload with MPI ranks: rank 0's upload ID and every rank's parts travel
/// through MPI (broadcast, gather), not through one process's memory.
#[cfg(feature = "mpi")]
fn shared_object_under_mpi(server: &Server) {
    let mut c = crate::common::launcher(3, 120);
    c.arg(bin()).args(
        "--no-store ior -a S3 --s3.bucket iog-mpi -t 5m -b 5m -s 2 -C -e -w -r -W -R -o mpi/object"
            .split_whitespace(),
    );
    clean_env(&mut c, &server.vars);
    let out = c.output().expect("mpirun");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("tasks               : 3"), "{stdout}");
    assert_eq!(
        objects(server, "iog-mpi"),
        None,
        "object and bucket removed"
    );
}

/// `--s3.depth 8`: eight requests in flight per rank, objects per rank and one shared object
/// written in random order (-z), both read back and verified; the figures count every
/// transfer, and the run leaves nothing.
fn at_depth(server: &Server) {
    let out = tmp();
    for (n, line) in [
        (2 * 16, "-N 2 -t 5m -b 80m -F"),
        (3 * 4, "-N 3 -t 5m -b 10m -s 2 -z"),
    ] {
        let doc = out.path().join("q.json");
        run(
            server,
            &format!(
                "--no-store ior -a S3 --s3.depth 8 --s3.bucket iog-depth {line} -e -w -r -W -R \
                 -o q/f --json {}",
                doc.display()
            ),
            &[],
        )
        .ok();
        let v = json(&doc);
        for p in v["phases"].as_array().unwrap() {
            assert_eq!(p["ops"], n, "{line}: {p}");
            if !p["verification"].is_null() {
                assert_eq!(p["verification"]["errors"], 0, "{line}: {p}");
            }
            if p["operation"] == "write" {
                assert_eq!(p["queue"]["depth"], 8, "{line}: {p}");
            }
        }
        assert_eq!(objects(server, "iog-depth"), None, "{line}");
    }
}
