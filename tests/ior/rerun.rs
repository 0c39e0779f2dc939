//! Test files as IOR treats them: a write without -E removes and recreates the files that -o
//! names, -E writes into them, a read without -k removes them afterwards; only regular files
//! at exactly those names are ever touched.

use std::path::Path;

use crate::common::{iogauge, tmp};

fn ior(args: &str, o: &Path) -> crate::common::Run {
    iogauge(&format!("ior -N 2 -t 4k {args} -o {}", o.display()))
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_same_line_twice_then_read_then_write_with_and_without_e() {
    let d = tmp();
    let o = d.path().join("f");
    let user = d.path().join("user.txt");
    std::fs::write(&user, b"the user's own file").unwrap();

    // The first write; the same line again replaces the file: a hard link to the old one
    // keeps the old bytes, so the file was removed and created anew, not written in place.
    let first = ior("-b 16k -w -k -G 7", &o).ok();
    assert!(!first.stderr.contains("replacing"), "{}", first.stderr);
    let written = bytes(&o);
    assert_eq!(written.len(), 2 * 16384);
    let link = d.path().join("link");
    std::fs::hard_link(&o, &link).unwrap();
    let again = ior("-b 16k -w -k -G 8", &o).ok();
    assert!(
        again.stderr.contains("replacing") && again.stderr.contains(&o.display().to_string()),
        "one line says a file from before the run is replaced:\n{}",
        again.stderr
    );
    assert_eq!(
        again
            .stderr
            .lines()
            .filter(|l| l.contains("replacing"))
            .count(),
        1
    );
    assert!(
        bytes(&link) == written,
        "the old file is untouched behind its link"
    );
    assert!(bytes(&o) != written, "a new file with -G 8's bytes");
    std::fs::remove_file(&link).unwrap();
    ior("-b 16k -w -k -G 7", &o).ok();
    assert!(bytes(&o) == written, "the same line writes the same bytes");

    // A read-only run that checks every byte, keeping the file.
    ior("-b 16k -r -R -k -G 7", &o).ok();
    assert!(bytes(&o) == written);

    // A shorter write without -E replaces the file: nothing of the old one is left (rank 0's
    // first 8 KiB are the same bytes, rank 1's block now starts at 8 KiB).
    ior("-b 8k -w -k -G 7", &o).ok();
    let short = bytes(&o);
    assert_eq!(short.len(), 2 * 8192);
    assert!(short[..8192] == written[..8192]);

    // With -E the write goes into the existing file: the first 4 KiB change, the rest stays.
    let before = bytes(&o);
    let e = ior("-b 2k -t 2k -w -k -E -G 9", &o).ok();
    assert!(!e.stderr.contains("replacing"), "{}", e.stderr);
    let after = bytes(&o);
    assert_eq!(after.len(), before.len());
    assert!(after[..4096] != before[..4096], "-E wrote the first 4 KiB");
    assert!(after[4096..] == before[4096..], "-E left the rest in place");

    // A read without -k removes the test file afterwards, as IOR does.
    ior("-b 2k -t 2k -r -G 9", &o).ok();
    assert!(
        !o.exists(),
        "the read-only run without -k removed the test file"
    );

    assert!(bytes(&user) == b"the user's own file");
    assert_eq!(crate::common::listing(d.path()), ["user.txt"]);
}

#[test]
fn file_per_process_files_are_replaced_and_a_neighbour_survives() {
    let d = tmp();
    let o = d.path().join("f");
    let beside = d.path().join("f.00000002");
    std::fs::write(&beside, b"not one of ours with -N 2").unwrap();
    ior("-b 8k -F -w -k", &o).ok();
    let r = ior("-b 8k -F -w -r", &o).ok();
    assert!(r.stderr.contains("replacing 2 test files"), "{}", r.stderr);
    assert_eq!(crate::common::listing(d.path()), ["f.00000002"]);
    assert_eq!(bytes(&beside), b"not one of ours with -N 2");
}

#[test]
fn other_kinds_of_files_at_a_test_file_name_are_refused() {
    let d = tmp();
    let o = d.path().join("f");
    let target = d.path().join("target");
    std::fs::write(&target, b"elsewhere").unwrap();
    std::fs::create_dir(&o).unwrap();
    std::fs::write(o.join("inside"), b"kept").unwrap();
    for extra in ["-w", "-w -E", "-r -k"] {
        let r = ior(&format!("-b 4k {extra}"), &o).code(2);
        assert!(r.stderr.contains("is a directory"), "{extra}: {}", r.stderr);
    }
    assert_eq!(bytes(&o.join("inside")), b"kept");
    std::fs::remove_dir_all(&o).unwrap();
    std::os::unix::fs::symlink(&target, &o).unwrap();
    for extra in ["-w", "-w -E"] {
        let r = ior(&format!("-b 4k {extra}"), &o).code(2);
        assert!(
            r.stderr.contains("is a symbolic link"),
            "{extra}: {}",
            r.stderr
        );
    }
    assert_eq!(bytes(&target), b"elsewhere");
    assert!(std::fs::symlink_metadata(&o)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn overwrite_is_accepted_with_a_note() {
    let d = tmp();
    let o = d.path().join("f");
    std::fs::write(&o, b"old").unwrap();
    let r = ior("-b 4k -w -k --overwrite", &o).ok();
    assert!(
        r.stderr.contains("--overwrite is no longer needed"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::metadata(&o).unwrap().len(), 2 * 4096);
}
