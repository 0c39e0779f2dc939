use super::*;

/// HewlettPackard/lustre_exporter `proc/fs/lustre/llite/lustrefs-ffff88082d691000/stats`
/// (Apache-2.0; quoted in `docs/system-groundwork.md` §4): the old form, `secs.usecs`,
/// `[regs]` lines without min/max/sum.
const OLD: &str = include_str!("../../tests/fixtures/llite_stats.usecs");
/// whamcloud/lustrefs-exporter `lustre-collector/src/fixtures/valid/lustre-2.16.0_ddn56b/
/// client/client.txt`, its `llite.*.stats` block (MIT, Copyright (c) 2022 DDN):
/// `secs.nsecs`, start and elapsed time, sumsq, latencies in `[usecs]`.
const NEW: &str = include_str!("../../tests/fixtures/llite_stats.nsecs");

#[test]
fn the_old_usecs_file() {
    let s = parse_llite(OLD).unwrap();
    assert!((s.snapshot_s - 1497642145.928315).abs() < 1e-6);
    assert_eq!((s.start_s, s.counters.len()), (None, 14));
    let r = &s.counters["read_bytes"];
    assert_eq!((r.samples, r.unit.as_str()), (46318, "bytes"));
    assert_eq!((r.min, r.max, r.sum), (1048576, 1048576, 48567943168));
    assert_eq!(s.counters["write_bytes"].sum, 107462907658240);
    let o = &s.counters["open"];
    assert_eq!((o.samples, o.unit.as_str(), o.sum), (10271, "regs", 0));
    assert_eq!(s.counters["inode_permission"].samples, 21245);
}

#[test]
fn the_newer_nsecs_file_with_sumsq() {
    let s = parse_llite(NEW).unwrap();
    assert!((s.snapshot_s - 1790277040.0 - 0.611962111).abs() < 1e-6);
    assert!((s.start_s.unwrap() - 1790008165.0 - 0.367572621).abs() < 1e-6);
    assert_eq!(s.counters.len(), 27, "the lctl header line is no counter");
    let r = &s.counters["read_bytes"];
    assert_eq!(
        (r.samples, r.min, r.max, r.sum),
        (57406355, 1, 4194304, 1496254921055)
    );
    let o = &s.counters["open"];
    assert_eq!(
        (o.samples, o.unit.as_str(), o.max),
        (33538615, "usecs", 36643)
    );
    assert_eq!(s.counters["getxattr_hits"].unit, "reqs");
    assert_eq!(s.counters["openclosetime"].sum, 549421294037909);
    // The header of whamcloud/lustrefs-exporter PR #87, as the groundwork quotes it.
    let pr87 = "llite.ncpqlc-ff3694d8f2f17000.stats=
snapshot_time             1742210395.526739859 secs.nsecs
start_time                1742198638.969749273 secs.nsecs
elapsed_time              11756.556990586 secs.nsecs
read_bytes                15024767 samples [bytes] 40 1048576 15749376641112 16513681650568294040
";
    let s = parse_llite(pr87).unwrap();
    let elapsed = s.snapshot_s - s.start_s.unwrap();
    assert!((elapsed - 11756.556990586).abs() < 1e-5);
    assert_eq!(s.counters["read_bytes"].sum, 15749376641112);
}

#[test]
fn snapshot_time_forms() {
    let t = |text: &str| parse_llite(text).map(|s| s.snapshot_s - 1500000000.0);
    let near = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-6;
    assert!(
        near(t("snapshot_time 1500000000.5 secs.usecs"), 5e-6),
        "not padded"
    );
    assert!(
        near(t("snapshot_time 1500000000.  5000000 secs.usecs"), 5e-3),
        "%9lu ns"
    );
    assert!(near(
        t("snapshot_time 1500000000.005000000 secs.nsecs"),
        5e-3
    ));
    let unpadded = parse_llite("snapshot_time: 1.25 secs.nsecs").unwrap();
    assert!((unpadded.snapshot_s - 1.000000025).abs() < 1e-12);
    assert!(near(t("snapshot_time 1500000000 secs.usecs"), 0.0));
    assert_eq!(t("snapshot_time 1500000000.5"), None, "no unit");
    assert_eq!(t("snapshot_time x.5 secs.usecs"), None);
    assert_eq!(
        t("read_bytes 1 samples [bytes] 1 1 1"),
        None,
        "no snapshot_time"
    );
    let two = "snapshot_time 1.0 secs.usecs\nopen 1 samples [regs]\n\
               snapshot_time 2.0 secs.usecs\nclose 1 samples [regs]\n";
    let s = parse_llite(two).unwrap();
    assert_eq!(
        (s.snapshot_s, s.counters.len()),
        (1.0, 1),
        "the first file only"
    );
    let odd = "snapshot_time 1.0 secs.usecs\nopen 1 sample [regs]\nx\n\
               close 3 samples\nseek 2 samples [regs] 1 x 3\n";
    let s = parse_llite(odd).unwrap();
    let names: Vec<&str> = s.counters.keys().map(String::as_str).collect();
    assert_eq!(names, ["close", "seek"]);
    assert_eq!(
        (s.counters["close"].unit.as_str(), s.counters["seek"].sum),
        ("", 3)
    );
}

#[test]
fn a_delta_of_two_reads() {
    let a = parse_llite(OLD).unwrap();
    let later = OLD
        .replace("1497642145.928315", "1497642155.928315")
        .replace("46318 samples", "46328 samples")
        .replace("48567943168", "48578428928")
        .replace("10271 samples", "10276 samples")
        .replace("10267 samples", "10272 samples")
        + "fsync                     3 samples [regs]\n";
    let b = parse_llite(&later).unwrap();
    let d = b.since(&a);
    assert!((d.elapsed_s - 10.0).abs() < 1e-6);
    assert!(!d.reset);
    assert_eq!((d.read_calls(), d.read_bytes()), (10, 10 * 1048576));
    assert_eq!((d.write_calls(), d.write_bytes()), (0, 0));
    assert_eq!((d.opens(), d.closes(), d.fsyncs()), (5, 5, 3));
    assert_eq!(
        d.counters["read_bytes"].max, 1048576,
        "extremes since the start"
    );
    assert_eq!(d.samples("getxattr"), 0);
    assert_eq!(d.samples("no_such_counter"), 0);
    let back = a.since(&b);
    assert!(back.reset, "counts went back and fsync vanished");
    assert_eq!(back.read_bytes(), 0);
    let n = parse_llite(NEW).unwrap();
    let mut cleared = n.clone();
    cleared.start_s = Some(n.snapshot_s);
    assert!(cleared.since(&n).reset, "start_time moved");
    assert!(!n.since(&n).reset);
}

#[test]
fn instances_under_a_root() {
    let root = tempfile::tempdir().unwrap();
    let old = root.path().join("proc/fs/lustre/llite");
    let new = root.path().join("sys/kernel/debug/lustre/llite");
    for dir in [
        old.join("lustrefs-ffff88082d691000"),
        old.join("no-stats-here"),
        new.join("scratch-ffff9a1b2c3d4000"),
        new.join("scratch-ffff9a1b2c3d8000"),
    ] {
        std::fs::create_dir_all(&dir).unwrap();
    }
    std::fs::write(old.join("lustrefs-ffff88082d691000/stats"), OLD).unwrap();
    std::fs::write(new.join("scratch-ffff9a1b2c3d4000/stats"), NEW).unwrap();
    std::fs::write(new.join("scratch-ffff9a1b2c3d8000/stats"), NEW).unwrap();
    std::fs::write(old.join("stray-file"), "").unwrap();
    let all = llite_instances(root.path());
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "lustrefs-ffff88082d691000",
            "scratch-ffff9a1b2c3d4000",
            "scratch-ffff9a1b2c3d8000"
        ]
    );
    let (_, path) = instance_for_fsname(&all, "lustrefs").unwrap();
    assert_eq!(read_llite(path).unwrap().counters["open"].samples, 10271);
    assert_eq!(
        instance_for_fsname(&all, "scratch"),
        None,
        "two mounts of it"
    );
    assert_eq!(instance_for_fsname(&all, "other"), None);
    assert!(read_llite(&old.join("stray-file")).is_err());
    assert!(llite_instances(&root.path().join("nothing")).is_empty());
}

#[test]
fn fsnames() {
    assert_eq!(fsname("lustrefs-ffff88082d691000"), Some("lustrefs"));
    assert_eq!(fsname("a361000-ffff000189257000"), Some("a361000"));
    assert_eq!(fsname("my-fs-ffff0001"), Some("my-fs"));
    assert_eq!(fsname("nodash"), None);
    assert_eq!(fsname("fs-xyz"), None);
    assert_eq!(fsname("-ffff"), None);
    assert_eq!(
        fsname_from_source("10.0.0.1@tcp:/lustrefs"),
        Some("lustrefs")
    );
    assert_eq!(
        fsname_from_source("a@o2ib,b@o2ib:/scratch/sub"),
        Some("scratch")
    );
    assert_eq!(fsname_from_source("/dev/sda1"), None);
    assert_eq!(fsname_from_source("srv:/"), None);
}
