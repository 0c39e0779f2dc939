//! The warnings of docs/warnings.md on real runs: each raised by a case made for it and absent
//! from a clean one; the page-cache residency on a disk-backed directory (fresh, then dropped)
//! and on tmpfs (which cannot drop); `--warn` and `--drop-caches` as bad usage.

mod progress;

use std::path::Path;

use serde_json::Value;

use crate::common::{iogauge, json, shm};

/// A directory on a disk-backed file system (the page cache can drop its pages), if any.
fn disk() -> Option<tempfile::TempDir> {
    ["/var/tmp", "/tmp"]
        .iter()
        .map(Path::new)
        .filter(|p| p.is_dir() && !engine::cache::in_memory_fs(p))
        .find_map(|p| tempfile::tempdir_in(p).ok())
}

/// Runs `iogauge <args> --no-store --json <dir>/doc.json` and returns the document.
fn doc(dir: &Path, args: &str) -> Value {
    let d = dir.to_str().unwrap();
    let path = dir.join("doc.json");
    iogauge(&format!(
        "{} --no-store --json {}",
        args.replace("{D}", d),
        path.display()
    ))
    .ok();
    json(&path)
}

/// The ids of the run's alerts and of every phase's, in order.
fn ids(doc: &Value) -> Vec<String> {
    let of = |v: &Value| -> Vec<String> {
        v["alerts"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x["id"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = of(doc);
    for p in doc["phases"].as_array().unwrap() {
        out.extend(of(p));
    }
    out
}

fn has(doc: &Value, id: &str) -> bool {
    ids(doc).iter().any(|i| i == id)
}

/// The read phase's page-cache facts.
fn read_cache(doc: &Value) -> &Value {
    let read = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["operation"] == "read")
        .expect("a read phase");
    &read["page_cache"]
}

const IOR_RW: &str = "ior -N 2 -t 1m -b 8m -w -r -e -o {D}/f";

#[test]
fn residency_on_disk_fresh_and_dropped() {
    let Some(dir) = disk() else {
        eprintln!("no disk-backed temporary directory: skipped");
        return;
    };
    let fresh = doc(dir.path(), IOR_RW);
    let c = read_cache(&fresh);
    assert_eq!(c["status"], "measured", "{c}");
    let f = c["resident_fraction"].as_f64().unwrap();
    assert!(f > 0.9, "just written: {c}");
    assert_eq!(c["data_bytes"], 16 << 20);
    assert!(has(&fresh, "read-cached"));

    let dropped = doc(dir.path(), &format!("{IOR_RW} --drop-caches=files"));
    let c = read_cache(&dropped);
    let after = c["resident_fraction"].as_f64().unwrap();
    let before = c["drop"]["resident_fraction_before"].as_f64().unwrap();
    assert_eq!(c["drop"]["method"], "files", "{c}");
    assert!(before > 0.9 && after < 0.1, "{c}");
    assert!(!has(&dropped, "read-cached"), "{:?}", ids(&dropped));
    // IOR's own phases need no metadata caches dropped: nothing is limited.
    assert!(!has(&dropped, "cache-drop-limited"));
    eprintln!(
        "{}: fresh {f:.3}; --drop-caches=files: before {before:.3}, after {after:.3}",
        dir.path().display()
    );
}

#[test]
fn tmpfs_cannot_drop_and_says_so() {
    let dir = shm();
    let d = doc(dir.path(), &format!("{IOR_RW} --drop-caches=files"));
    let c = read_cache(&d);
    let after = c["resident_fraction"].as_f64().unwrap();
    if !engine::cache::in_memory_fs(dir.path()) {
        return; // no /dev/shm here
    }
    assert!(after > 0.9, "{c}");
    assert!(c["drop"]["note"].as_str().unwrap().contains("tmpfs"), "{c}");
    assert!(has(&d, "cache-drop-limited") && has(&d, "read-cached"));
    eprintln!(
        "{}: after --drop-caches=files {after:.3}",
        dir.path().display()
    );
}

#[test]
fn engines_without_a_page_cache_are_not_applicable() {
    let dir = shm();
    let d = doc(dir.path(), "ior -a DUMMY -N 2 -t 1m -b 4m -w -r -o {D}/f");
    assert_eq!(read_cache(&d)["status"], "not-applicable");
    for id in ["read-cached", "dataset-fits-memory", "write-no-fsync"] {
        assert!(!has(&d, id), "{id}: {:?}", ids(&d));
    }
}

#[test]
fn write_without_fsync() {
    let dir = shm();
    let unsynced = doc(dir.path(), "ior -t 1m -b 2m -w -o {D}/f");
    assert!(has(&unsynced, "write-no-fsync"));
    assert_eq!(unsynced["phases"][0]["flushed"], false);
    let synced = doc(dir.path(), "ior -t 1m -b 2m -w -e -o {D}/f");
    assert!(!has(&synced, "write-no-fsync"));
    assert_eq!(synced["phases"][0]["flushed"], true);
    let md = doc(dir.path(), "mdtest --tasks 2 -n 5 -w 10 -C -d {D}/md");
    assert!(has(&md, "write-no-fsync"));
    let md = doc(dir.path(), "mdtest --tasks 2 -n 5 -w 10 -y -C -d {D}/md2");
    assert!(!has(&md, "write-no-fsync"));
}

/// Four 100 ms transfers per rank: each phase lasts at least 0.4 s.
const SLOW: &str = "ior -a DUMMY --dummy.delay-xfer=100000 -N 3 -t 1m -b 4m -w -r -o {D}/f";

#[test]
fn short_phases_against_the_threshold() {
    let dir = shm();
    assert!(has(&doc(dir.path(), SLOW), "short-phase"));
    let d = doc(dir.path(), &format!("{SLOW} --warn short-phase=0.3s"));
    assert!(!has(&d, "short-phase"), "{:?}", ids(&d));
}

#[test]
fn a_straggler_and_even_ranks() {
    let dir = shm();
    let even = doc(dir.path(), SLOW);
    assert!(!has(&even, "straggler"), "{:?}", ids(&even));
    let s = &even["phases"][0]["spread"];
    assert!(
        s["first_done_s"].as_f64() <= s["last_done_s"].as_f64(),
        "{s}"
    );
    let slow0 = doc(
        dir.path(),
        &format!("{SLOW} --dummy.delay-only-rank0 --warn short-phase=off"),
    );
    assert!(has(&slow0, "straggler"), "{:?}", ids(&slow0));
    let a = slow0["phases"][0]["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == "straggler")
        .unwrap();
    assert_eq!(a["evidence"]["rank"], 0, "{a}");
    assert_eq!(slow0["phases"][0]["spread"]["last_done_rank"], 0);
    assert!(a["evidence"]["ratio"].as_f64().unwrap() > 1.5, "{a}");
}

#[test]
fn reads_far_faster_than_their_write() {
    let dir = shm();
    // The write's window includes a 0.5 s fsync; the read has none.
    let d = doc(
        dir.path(),
        "ior -a DUMMY --dummy.delay-sync=500000 -N 2 -t 1m -b 4m -w -r -e -o {D}/f",
    );
    assert!(has(&d, "read-faster-than-write"), "{:?}", ids(&d));
    assert!(!has(&doc(dir.path(), SLOW), "read-faster-than-write"));
}

#[test]
fn data_that_fits_in_memory() {
    let dir = shm();
    let small = doc(dir.path(), "ior -t 1m -b 2m -w -r -o {D}/f");
    assert!(has(&small, "dataset-fits-memory"));
    let a = &small["phases"][1]["alerts"];
    let e = &a
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "dataset-fits-memory")
        .unwrap()["evidence"];
    assert_eq!(e["bytes_per_node"], 2 << 20);
    assert!(e["memory_bytes"].as_u64().unwrap() > 2 << 20, "{e}");
    let off = doc(
        dir.path(),
        "ior -t 1m -b 2m -w -r -o {D}/f --warn dataset-fits-memory=off",
    );
    assert!(!has(&off, "dataset-fits-memory"));
}

#[test]
fn reads_on_the_node_that_wrote() {
    let dir = shm();
    let one = doc(dir.path(), "ior -N 2 -t 1m -b 2m -w -r -C -o {D}/f");
    assert_eq!(
        one["alerts"][0]["id"], "read-same-node",
        "{}",
        one["alerts"]
    );
    assert_eq!(one["alerts"][0]["evidence"]["nodes"], 1);
    let two = doc(
        dir.path(),
        "ior -N 2 -t 1m -b 2m -w -r -C --fake-nodes 2 -o {D}/f",
    );
    assert!(!has(&two, "read-same-node"));
}

#[test]
fn metadata_phases_need_the_node_drop() {
    let dir = shm();
    let md = "mdtest --tasks 2 -n 5 -d {D}/md";
    assert!(!has(&doc(dir.path(), md), "cache-drop-limited"));
    let d = doc(dir.path(), &format!("{md} --drop-caches=files"));
    assert_eq!(
        d["alerts"][0]["id"], "cache-drop-limited",
        "{}",
        d["alerts"]
    );
}

#[test]
fn the_summary_names_each_warning_once() {
    let dir = shm();
    let d = dir.path().to_str().unwrap();
    let r = iogauge(&format!(
        "ior -t 1m -b 2m -w -r -i 2 -o {d}/f --no-store --warn read-cached=off"
    ))
    .ok();
    assert!(
        r.stderr.contains("iogauge: warnings (what each means"),
        "{}",
        r.stderr
    );
    let short = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("  [short-phase] write"))
        .count();
    assert_eq!(short, 1, "{}", r.stderr);
    assert!(r.stderr.contains("(also iteration 1)"), "{}", r.stderr);
    assert!(!r.stderr.contains("[read-cached]"), "{}", r.stderr);
    // Not a terminal: no progress line.
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
}

#[test]
fn bad_thresholds_and_modes_are_bad_usage() {
    for (args, says) in [
        (
            "--warn cached=1 ior -w -o /nonexistent/f",
            "--warn cached=1: no warning",
        ),
        ("ior --warn short-phase=x -w -o /nonexistent/f", "seconds"),
        (
            "ior --drop-caches=all -w -o /nonexistent/f",
            "--drop-caches=all: the mode is",
        ),
    ] {
        let r = iogauge(args).code(2);
        assert!(r.stderr.contains(says), "{args}: {}", r.stderr);
    }
}
