use super::*;
use proptest::prelude::*;

/// prometheus/procfs `testdata/fixtures.ttar`, `fixtures/proc/26231/mountstats`
/// (Apache-2.0; quoted in `docs/system-groundwork.md` §4): one NFSv4 mount, 8-field
/// per-op lines, a garbage ACCESS queue time.
const PROCFS: &str = include_str!("../../tests/fixtures/mountstats");
/// Hand-made: the same mount later (4 READs and 101 WRITEs of 1 MiB, 2 COMMITs, 10
/// ACCESSes, a queue time back to sanity), an NFSv3 mount at `/mnt/nfs data` with
/// 9-field lines, and odd lines.
const LATER: &str = include_str!("../../tests/fixtures/mountstats.later");

#[test]
fn the_procfs_fixture_has_one_nfs4_mount() {
    let all = parse_mountstats(PROCFS);
    assert_eq!(all.len(), 1, "rootfs, sysfs, proc and ext4 are left out");
    let m = &all[0];
    assert_eq!(
        (m.device.as_str(), m.mount_point.as_str(), m.fstype.as_str()),
        ("192.168.1.1:/srv/test", "/mnt/nfs/test", "nfs4")
    );
    assert_eq!(
        (m.bytes.normal_read, m.bytes.server_read, m.bytes.read_pages),
        (1207640230, 1210214218, 295483)
    );
    let names: Vec<&str> = m.ops.keys().map(String::as_str).collect();
    assert_eq!(names, ["ACCESS", "NULL", "READ", "WRITE"]);
    let read = m.ops["READ"];
    assert_eq!(
        (read.ops, read.bytes_recv, read.rtt_ms),
        (1298, 1210292152, 79386)
    );
    assert_eq!((read.execute_ms, read.errors), (79407, 0));
    assert_eq!(m.ops["ACCESS"].queue_ms, 18446743919241604546);
    assert!((read.avg_rtt_ms() - 79386.0 / 1298.0).abs() < 1e-9);
    assert_eq!(m.ops["WRITE"].avg_rtt_ms(), 0.0, "no request, no mean");
}

#[test]
fn a_delta_between_two_snapshots() {
    let a = parse_mountstats(PROCFS);
    let b = parse_mountstats(LATER);
    let (a, b) = (
        for_mount(&a, "/mnt/nfs/test").unwrap(),
        for_mount(&b, "/mnt/nfs/test").unwrap(),
    );
    let d = b.since(a);
    assert_eq!(d.mount_point, "/mnt/nfs/test");
    assert_eq!(
        (d.bytes.normal_read, d.bytes.server_read),
        (4194304, 4194304)
    );
    assert_eq!(
        (d.bytes.normal_write, d.bytes.direct_write),
        (104857600, 1048576)
    );
    assert_eq!(
        (d.bytes.server_write, d.bytes.write_pages),
        (105906176, 25600)
    );
    assert_eq!((d.read().ops, d.read().avg_rtt_ms()), (4, 10.0));
    assert_eq!((d.write().ops, d.write().avg_rtt_ms()), (101, 20.0));
    assert_eq!(d.write().avg_execute_ms(), 21.0);
    assert_eq!(
        (d.avg_read_bytes(), d.avg_write_bytes()),
        (1048576.0, 1048576.0)
    );
    assert_eq!(d.read().avg_wire_bytes(), (640 + 4194784) as f64 / 4.0);
    assert_eq!((d.commit_ops(), d.total_ops()), (2, 4 + 101 + 2 + 10));
    assert_eq!(d.op("COMMIT").rtt_ms, 30, "an op new since counts from 0");
    assert_eq!(
        d.op("ACCESS").queue_ms,
        0,
        "garbage that went back saturates"
    );
    assert_eq!(d.op("GETATTR"), NfsOp::default());
    let back = a.since(b);
    assert_eq!((back.total_ops(), back.bytes), (0, NfsBytes::default()));
    assert_eq!(back.avg_read_bytes(), 0.0);
}

#[test]
fn nine_fields_and_an_escaped_mount_point() {
    let all = parse_mountstats(LATER);
    assert_eq!(all.len(), 2, "the tmpfs over the NFS mount is not one");
    let m = for_mount(&all, "/mnt/nfs data").unwrap();
    assert_eq!(
        (m.device.as_str(), m.fstype.as_str()),
        ("srv:/export dir", "nfs")
    );
    assert!(for_mount(&all, r"/mnt/nfs\040data").is_none());
    let names: Vec<&str> = m.ops.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["COMMIT", "NULL", "WRITE"],
        "GARBAGE and SHORT skipped"
    );
    assert_eq!(m.ops["COMMIT"].errors, 1);
    assert_eq!((m.ops["WRITE"].ops, m.ops["WRITE"].retrans()), (2, 0));
    assert_eq!((m.bytes.server_write, m.bytes.write_pages), (8192, 2));
}

#[test]
fn odd_lines_are_skipped() {
    let text = "\
device a:/x mounted on /a with fstype nfs4 statvers=1.1
\tbytes:\t1 2 3
\tREAD: 1 1 0 1 1 0 1 1
\tper-op statistics
\t  READ: 1 1 0 1 1 0 1 99999999999999999999
\t  WRITE: 3 4 0 1 1 0 1 1 0 7 7
device ext mounted on /b with fstype ext4
\tbytes:\t1 1 1 1 1 1 1 1
\t  READ: 5 5 0 5 5 0 5 5
device b:/y mounted on /c with fstype nfs
device short mounted on
no device mounted on /d with fstype nfs
";
    let all = parse_mountstats(text);
    assert_eq!(all.len(), 2);
    let a = &all[0];
    assert_eq!(a.bytes, NfsBytes::default(), "3 numbers are no bytes line");
    let names: Vec<&str> = a.ops.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["WRITE"],
        "READ before the header and READ past u64 skipped"
    );
    assert_eq!((a.ops["WRITE"].errors, a.ops["WRITE"].retrans()), (0, 1));
    assert_eq!((all[1].mount_point.as_str(), all[1].ops.len()), ("/c", 0));
    assert!(parse_mountstats("").is_empty());
}

#[test]
fn unescape_edge_cases() {
    assert_eq!(unescape(r"a\040b\011c\134d"), "a b\tc\\d");
    assert_eq!(unescape(r"end\040"), "end ");
    assert_eq!(unescape(r"trailing\04"), r"trailing\04");
    assert_eq!(unescape(r"\9xx"), r"\9xx");
}

#[test]
fn this_machine_parses() {
    let text = read_mountstats().unwrap();
    let nfs_lines = text
        .lines()
        .filter(|l| l.starts_with("device "))
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            matches!(f.get(7), Some(&"nfs") | Some(&"nfs4"))
        })
        .count();
    let all = parse_mountstats(&text);
    assert_eq!(all.len(), nfs_lines, "one per NFS mount line (none here)");
}

proptest! {
    /// Any text parses without a panic, and a snapshot minus itself is empty.
    #[test]
    fn any_text_parses(text in "(device [a-z:/]{1,6} mounted on /[a-z]{0,3} with fstype nfs4?\n|\t(bytes:|per-op statistics|[A-Z]{1,5}:)( [0-9]{1,20}){0,10}\n|[ -~\t]{0,30}\n){0,12}") {
        for m in parse_mountstats(&text) {
            let d = m.since(&m);
            prop_assert_eq!(d.total_ops(), 0);
            prop_assert_eq!(d.bytes, NfsBytes::default());
        }
    }
}
