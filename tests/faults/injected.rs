//! Errors injected at operation N by `-a DUMMY --dummy.fail-at=N --dummy.fail-errno=E`, and
//! short transfers by `--dummy.short-at=N`: each error is reported with the operation, the
//! file, the offset and the rank, and exits 1; a short transfer is retried as IOR does, never
//! taken as whole without saying so.

use crate::common::{iogauge, tmp};

/// `iogauge ARGS` (DIR: a fresh directory), its exit status and stderr.
fn run(args: &str) -> (i32, String) {
    let d = tmp();
    let r = iogauge(&args.replace("DIR", &d.path().display().to_string()));
    (
        r.code,
        r.stderr.replace(&d.path().display().to_string(), "DIR"),
    )
}

#[test]
fn ior_names_operation_file_offset_rank_and_errno() {
    // Operation 1 is the open, 2.. the writes of 1 KiB: operation 3 is the write at 1024.
    for (errno, text) in [
        (5, "Input/output error (EIO)"),
        (13, "Permission denied (EACCES)"),
        (116, "Stale file handle (ESTALE)"),
    ] {
        let (code, err) = run(&format!(
            "ior -a DUMMY --dummy.fail-at=3 --dummy.fail-errno={errno} -t 1k -b 4k -w -o DIR/f --no-store"
        ));
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("rank 0: write DIR/f at offset 1024: {text}")),
            "{err}"
        );
    }
}

#[test]
fn ior_read_errors_and_the_failing_rank_are_named() {
    // Open, 4 writes and close are operations 1-6; the read opens (7) and operation 10 is
    // its third read: rank 1 reads its block at 4096.
    let (code, err) = run(
        "--tasks 2 ior -a DUMMY --dummy.fault-rank=1 --dummy.fail-at=10 -t 1k -b 4k -w -r -o DIR/f --no-store",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 1: read DIR/f at offset 6144: Input/output error"),
        "{err}"
    );
}

#[test]
fn ior_short_writes_and_reads_are_retried_with_a_warning() {
    for (phase, at) in [("-w", 2), ("-w -r", 6)] {
        let (code, err) = run(&format!(
            "ior -a DUMMY --dummy.short-at={at} -t 1k -b 4k {phase} -o DIR/f --no-store"
        ));
        assert_eq!(code, 0, "{err}");
        let op = if at == 2 { "write" } else { "read" };
        assert!(
            err.contains(&format!(
                "WARNING: rank 0, partial {op} of DIR/f, 512 of 1024 bytes at offset 1024; retrying the rest"
            )),
            "{err}"
        );
    }
}

#[test]
fn mdtest_names_operation_path_rank_and_errno() {
    // Operations 1-4: the tree's and the test directory's mkdirs and stats; 5: the first
    // directory of the dir-create phase.
    let (code, err) =
        run("mdtest -a DUMMY --dummy.fail-at=5 --dummy.fail-errno=116 -n 4 -d DIR/md --no-store");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 0: mkdir DIR/md/") && err.contains("Stale file handle (ESTALE)"),
        "{err}"
    );
    let (code, err) =
        run("mdtest -a DUMMY --dummy.fail-at=5 --dummy.fail-errno=13 -F -n 4 -d DIR/md --no-store");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("rank 0: ") && err.contains("Permission denied"),
        "{err}"
    );
}

#[test]
fn mdtest_short_read_is_a_data_error_naming_file_byte_and_rank() {
    let (code, err) =
        run("mdtest -a DUMMY --dummy.short-at=2 -e 4096 -w 4096 -n 4 -d DIR/md --no-store");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("file.mdtest.0.1 at byte 2048 (read by rank 0)"),
        "{err}"
    );
}
