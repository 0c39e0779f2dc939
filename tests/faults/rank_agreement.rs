//! Only rank 1 of two thread ranks fails (`--dummy.fault-rank=1`): the ranks agree at the
//! phase's end and end together (no hang: each run is bounded by `timeout`), the error names
//! rank 1 with its operation and path, the phases finished before stay in the JSON, and the
//! exit status is 1.

use std::process::Command;

use crate::common::{bin, json, tmp};

/// `timeout 30 iogauge --tasks 2 ARGS --json J` (DIR: a fresh directory): exit status,
/// stderr with DIR written as such, and the document's phase names.
fn two_ranks(args: &str) -> (i32, String, Vec<String>) {
    two_ranks_in(tmp().path(), args)
}

/// [`two_ranks`] with DIR standing for `d`.
fn two_ranks_in(d: &std::path::Path, args: &str) -> (i32, String, Vec<String>) {
    let dir = d.display().to_string();
    let j = d.join("r.json");
    let mut line = vec!["30".to_string(), bin().display().to_string()];
    line.extend(["--tasks", "2"].map(String::from));
    line.extend(
        args.replace("DIR", &dir)
            .split_whitespace()
            .map(String::from),
    );
    line.extend([
        "--no-store".into(),
        "--json".into(),
        j.display().to_string(),
    ]);
    let out = Command::new("timeout").args(&line).output().unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert_ne!(code, 124, "the ranks hung");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&dir, "DIR");
    let doc = json(&j);
    assert_eq!(doc["exit_code"], code);
    let phases = doc["phases"].as_array().unwrap();
    let names = phases
        .iter()
        .map(|p| p["operation"].as_str().unwrap_or("").to_string())
        .collect();
    (code, stderr, names)
}

#[test]
fn mdtest_rank_1_failing_ends_both_ranks_with_its_error() {
    // Rank 1's operations 1-10 create its 10 directories, 11-20 stat them; 15 is a stat.
    let (code, err, phases) =
        two_ranks("mdtest -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=15 -n 10 -d DIR/md");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: stat DIR/md/test-dir.0-0/mdtest_tree.0/dir.mdtest.1.4: Input/output error (EIO)"),
        "{err}"
    );
    assert_eq!(phases, ["tree-create", "dir-create"], "{err}");
    // A failure in the file create, with -W's agreement in the phase: rank 0 runs on.
    let (code, err, phases) = two_ranks(
        "mdtest -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=3 --dummy.fail-errno=28 -F -n 10 -W 5 -d DIR/md",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: create DIR/md/test-dir.0-0/mdtest_tree.0/file.mdtest.1.2: No space left on device (ENOSPC)"),
        "{err}"
    );
    assert_eq!(phases, ["tree-create"], "{err}");
}

#[test]
fn md_workbench_rank_1_failing_ends_both_ranks_with_its_error() {
    // Rank 1's precreate: 2 mkdirs, 20 creates; its benchmark then stats (23), reads (24)
    // and deletes (25) the first object of the set it consumes.
    let (code, err, phases) = two_ranks(
        "md-workbench -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=25 -D 2 -P 10 -I 5 -o DIR/wb",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: delete DIR/wb/0_0/file-0: Input/output error (EIO)"),
        "{err}"
    );
    assert_eq!(phases, ["precreate"], "{err}");
    // In the precreate: nothing finished.
    let (code, err, phases) = two_ranks(
        "md-workbench -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=4 --dummy.fail-errno=28 -D 2 -P 10 -I 5 -o DIR/wb",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: create DIR/wb/1_") && err.contains("(ENOSPC)"),
        "{err}"
    );
    assert!(phases.is_empty(), "{phases:?}");
}

/// The same with real directories: a user's file at the name of rank 1's fifth directory
/// item, in a tree the user made, fails rank 1's mkdir; both ranks then remove every
/// directory item they made, and the user's file stays.
#[test]
fn mdtest_rank_1_failing_on_disk_leaves_only_the_users_file() {
    let d = tmp();
    let tree = d.path().join("md/test-dir.0-0/mdtest_tree.0");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("dir.mdtest.1.4"), "mine").unwrap();
    let (code, err, phases) = two_ranks_in(d.path(), "mdtest -n 10 -d DIR/md");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: mkdir DIR/md/test-dir.0-0/mdtest_tree.0/dir.mdtest.1.4: exists"),
        "{err}"
    );
    assert_eq!(phases, ["tree-create"], "{err}");
    assert_eq!(crate::common::listing(&tree), ["dir.mdtest.1.4"]);
}

#[test]
fn mix_rank_1_failing_ends_both_ranks_with_its_error() {
    // Rank 1's prepare: its directory, 2 data directories, 4 files and 1 empty directory
    // (operations 1-8); operation 10 is in the first step.
    let mix = tmp();
    let file = mix.path().join("m.toml");
    std::fs::write(
        &file,
        "name = \"m\"\n[operations]\nstat = 100\n[tree]\ndirs = 2\nfiles-per-dir = 2\n\
         file-size = \"4k\"\nio-size = \"4k\"\nempty-dirs = 1\n",
    )
    .unwrap();
    let args = format!(
        "mix -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=10 --mix {} --dir DIR/mix \
         --ramp 200:200:400 --step-seconds 0.2",
        file.display()
    );
    let (code, err, phases) = two_ranks(&args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: stat DIR/mix/r1/d") && err.contains("Input/output error (EIO)"),
        "{err}"
    );
    // The prepare finished; the cut step and the clean-up after the failure are not reported.
    assert_eq!(phases, ["mix-prepare"], "{err}");
    // In the prepare (rank 1's fourth operation, a create): nothing finished.
    let args = args.replace("fail-at=10", "fail-at=4 --dummy.fail-errno=28");
    let (code, err, phases) = two_ranks(&args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: create DIR/mix/r1/d") && err.contains("(ENOSPC)"),
        "{err}"
    );
    assert!(phases.is_empty(), "{phases:?}");
}
