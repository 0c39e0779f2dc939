//! IOR on the queued path: the dummy engine's queue (delays, out-of-order completions) for the
//! accounting, `-a IOURING` for the bytes (equal to the synchronous engine's in every pattern),
//! the checks, a full file system and a signal at depth. The io_uring tests skip with a message
//! where the kernel refuses io_uring.

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::{iogauge, json, listing, tmp};
use crate::safety::full_fs::SmallFs;
use crate::safety::signal::{interrupt, spawn, wait_for};

/// Whether this kernel runs io_uring for iogauge (a one-transfer probe); says why not.
fn uring() -> bool {
    let d = tmp();
    let r = iogauge(&format!(
        "--no-store ior -a IOURING -w -t 4k -b 4k -o {}",
        d.path().join("probe").display()
    ));
    if r.code != 0 {
        eprintln!("skipped: io_uring not usable here: {}", r.stderr.trim());
    }
    r.code == 0
}

fn phases(doc: &Value) -> &Vec<Value> {
    doc["phases"].as_array().unwrap()
}

#[test]
fn the_dummy_queue_times_every_transfer_from_its_submission_out_of_order() {
    let d = tmp();
    let j = d.path().join("r.json");
    iogauge(&format!(
        "--no-store ior -a DUMMY --dummy.depth 8 --dummy.complete-delay 2ms --dummy.reorder \
         -N 2 -t 1m -b 64m -w -r -o {} --json {}",
        d.path().join("f").display(),
        j.display()
    ))
    .ok();
    let doc = json(&j);
    for p in phases(&doc) {
        assert_eq!(p["ops"], 128, "every transfer counted once: {p}");
        assert_eq!(p["latency"]["count"], 128);
        // Each request waited the engine's 2 ms at least, from its submission.
        let min = p["latency"]["min"].as_u64().unwrap();
        assert!(
            min >= 2_000_000,
            "latency {min} ns below the 2 ms completion delay"
        );
        let q = &p["queue"];
        assert_eq!(q["depth"], 8, "{p}");
        let mean = q["in_flight_mean"].as_f64().unwrap();
        assert!(
            // One transfer at a time would keep at most 2 in flight (one per rank); the ranks'
            // start and end apart (a loaded machine) and each queue's drain keep it below 16.
            mean > 2.0 && mean <= 16.0,
            "2 ranks at depth 8: mean in flight {mean}"
        );
    }
}

#[test]
fn the_dummy_queue_reports_an_injected_errno_with_file_and_offset() {
    let d = tmp();
    let r = iogauge(&format!(
        "--no-store ior -a DUMMY --dummy.depth 4 --dummy.reorder --dummy.fail-at=6 \
         --dummy.fail-errno=28 -t 64k -b 1m -w -o {}",
        d.path().join("f").display()
    ))
    .code(1);
    assert!(
        r.stderr.contains("rank 0: write") && r.stderr.contains("(ENOSPC)"),
        "{}",
        r.stderr
    );
}

/// `ior <args>` with `-a POSIX` into `a/` and with `-a IOURING` at `depth` into `b/`; the files
/// written must be equal byte for byte.
fn same_bytes(args: &str, depth: u32) {
    let d = tmp();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    for (dir, engine) in [
        (&a, "-a POSIX".to_string()),
        (&b, format!("-a IOURING --iouring.depth {depth}")),
    ] {
        iogauge(&format!(
            "--no-store ior {engine} -w -k -G 77 {args} -o {}",
            dir.join("f").display()
        ))
        .ok();
    }
    let (names_a, names_b) = (listing(&a), listing(&b));
    assert_eq!(names_a, names_b, "{args}");
    for n in &names_a {
        let (x, y) = (
            std::fs::read(a.join(n)).unwrap(),
            std::fs::read(b.join(n)).unwrap(),
        );
        assert!(x == y, "{args}: {n} differs");
    }
}

#[test]
fn iouring_writes_the_bytes_the_synchronous_engine_writes_in_every_pattern() {
    if !uring() {
        return;
    }
    for (args, depth) in [
        ("-N 2 -F -t 64k -b 1m", 16),
        ("-N 2 -t 64k -b 256k -s 4", 8),
        ("-N 3 -t 16k -b 64k -s 3 -z --random-offset-seed 5", 32),
        ("-N 2 -F -t 64k -b 512k -l timestamp", 64),
        ("-N 2 -t 47008 -b 47008 -s 40", 128),
    ] {
        same_bytes(args, depth);
    }
}

#[test]
fn reads_at_depth_reorder_and_verify() {
    if !uring() {
        return;
    }
    let d = tmp();
    let o = d.path().join("f");
    iogauge(&format!(
        "--no-store ior -a IOURING -N 2 -t 16k -b 256k -F -w -k -G 9 -o {}",
        o.display()
    ))
    .ok();
    // -C reads the other rank's file, -z in a shuffled order, 64 in flight.
    let r = iogauge(&format!(
        "--no-store ior -a IOURING --iouring.depth 64 -N 2 --fake-nodes 2 -C -z \
         --random-offset-seed 3 -t 16k -b 256k -F -r -R -k -G 9 -o {}",
        o.display()
    ))
    .ok();
    assert!(!r.stderr.contains("verification failed"), "{}", r.stderr);
    // One flipped byte is found, named with its file and offset.
    super::verify::flip_byte(&d.path().join("f.00000000"), 100_000);
    let r = iogauge(&format!(
        "--no-store ior -a IOURING --iouring.depth 64 -N 2 -z --random-offset-seed 3 -t 16k \
         -b 256k -F -r -R -k -G 9 -o {}",
        o.display()
    ))
    .code(1);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("f.00000000") && all.contains("100000"),
        "{all}"
    );
}

#[test]
fn a_full_file_system_at_depth_names_the_file_and_leaves_nothing() {
    if !uring() {
        return;
    }
    let Some(fs) = SmallFs::mount(1) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let r = iogauge(&format!(
        "--no-store ior -a IOURING --iouring.depth 32 -N 2 -F -t 64k -b 4m -w -o {}",
        fs.dir.join("f").display()
    ))
    .code(1);
    assert!(
        r.stderr.contains("write")
            && r.stderr.contains("f.0000000")
            && r.stderr.contains("at offset")
            && r.stderr.contains("(ENOSPC)"),
        "{}",
        r.stderr
    );
    assert_eq!(
        listing(&fs.dir),
        Vec::<String>::new(),
        "the test files were removed"
    );
}

/// Threads of process `pid` (0 once it has gone).
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count())
}

#[test]
fn sigint_at_depth_drains_and_keeps_every_finished_transfer() {
    let d = tmp();
    let j = d.path().join("r.json");
    let t = d.path().join("t");
    std::fs::create_dir(&t).unwrap();
    let child = spawn(&[
        "--no-store",
        "ior",
        "-a",
        "DUMMY",
        "--dummy.depth",
        "16",
        "--dummy.complete-delay",
        "5ms",
        "-N",
        "2",
        "-t",
        "1m",
        "-b",
        "64g",
        "-w",
        "-D",
        "60",
        "-o",
        t.join("f").to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    // The dummy engine makes no file to wait for: wait for the two rank threads, then give
    // the write phase time to fill the queues.
    let pid = child.id();
    wait_for("the rank threads", || threads(pid) >= 3);
    std::thread::sleep(Duration::from_millis(500));
    let (run, took) = interrupt(child, "INT");
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(took < Duration::from_secs(2), "the drain took {took:?}");
    let doc = json(&j);
    let p = &phases(&doc)[0];
    assert_eq!(p["interrupted"], true);
    let (ops, bytes) = (p["ops"].as_u64().unwrap(), p["bytes"].as_u64().unwrap());
    assert!(ops > 0);
    assert_eq!(bytes, ops << 20, "no transfer lost from the counts");
    assert_eq!(p["latency"]["count"].as_u64().unwrap(), ops);
}

#[test]
fn strace_sees_few_enters_and_no_preads_at_depth_32() {
    if !uring() || Command::new("strace").arg("-V").output().is_err() {
        eprintln!("skipped: io_uring or strace (Debian package strace) missing");
        return;
    }
    let d = tmp();
    let o = d.path().join("f");
    iogauge(&format!(
        "--no-store ior -t 1m -b 16m -w -k -o {}",
        o.display()
    ))
    .ok();
    let run = |trace: &[&str]| {
        let out = Command::new("strace")
            .args(["-f"])
            .args(trace)
            .arg(crate::common::bin())
            .args([
                "--no-store",
                "ior",
                "-a",
                "IOURING",
                "--iouring.depth",
                "32",
                // All pushed requests in one io_uring_enter (the default, 1, is fio's: one each).
                "--iouring.batch",
                "0",
                "-r",
                "-z",
                "-k",
            ])
            .args(["-t", "4k", "-b", "16m", "-o", o.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let table = run(&["-c", "-e", "trace=io_uring_enter"]);
    let enters = table
        .lines()
        .find(|l| l.split_whitespace().last() == Some("io_uring_enter"))
        .and_then(|l| l.split_whitespace().nth(3)?.parse::<u64>().ok())
        .unwrap_or(0);
    let transfers = 16 * 256;
    assert!(enters > 0 && enters * 4 < transfers, "{table}");
    // Only the calls on the test file (-P): the loader's own preads of libraries are not I/O
    // of the run.
    let calls = run(&[
        "-P",
        o.to_str().unwrap(),
        "-e",
        "trace=pread64,pwrite64,preadv,pwritev,read,write",
    ]);
    for sync in [
        "pread64(",
        "pwrite64(",
        "preadv(",
        "pwritev(",
        "read(",
        "write(",
    ] {
        assert!(
            !calls.lines().any(|l| l.contains(sync)),
            "{sync} on the test file in the data path:\n{calls}"
        );
    }
}
