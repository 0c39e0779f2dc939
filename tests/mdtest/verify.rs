//! `-w`/`-e`/`-X`: data written at create is read back and checked; a changed byte is found.

use crate::common::{iogauge, shm};

#[test]
fn a_changed_byte_fails_the_read_check() {
    let d = shm();
    let base = format!(
        "mdtest --tasks 2 -n 20 -F -G 5 -d {}/md",
        d.path().display()
    );
    iogauge(&format!("{base} -C -w 100")).ok();
    // Unchanged, the separate read run verifies cleanly.
    iogauge(&format!("{base} -E -X -e 100")).ok();
    let f = d
        .path()
        .join("md/test-dir.0-0/mdtest_tree.0/file.mdtest.1.7");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[10] ^= 0x01;
    std::fs::write(&f, bytes).unwrap();
    let r = iogauge(&format!("{base} -E -X -e 100")).code(1);
    assert!(
        r.stdout.contains(
            "ERROR: verifying the data on read (1 errors)! Take the performance values with care!"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("data verification failed: 1 file(s)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("file.mdtest.1.7 at byte 10"),
        "{}",
        r.stderr
    );
    // The wrong seed fails every file.
    let r = iogauge(&format!(
        "mdtest --tasks 2 -n 20 -F -G 6 -d {}/md -E -X -e 100",
        d.path().display()
    ))
    .code(1);
    assert!(r.stdout.contains("(40 errors)"), "{}", r.stdout);
}

#[test]
fn the_check_follows_the_neighbour_shift_and_a_shorter_read() {
    let d = shm();
    // Written and read in one run; with -N 1 each task reads its neighbour's files.
    for args in [
        "-w 3901 -e 3901",
        "-w 3901 -e 1001 -N 1 --dataPacketType=t",
        "-w 8192 -e 5000 --dataPacketType=o -N 1",
    ] {
        iogauge(&format!(
            "mdtest --tasks 3 -n 30 -F -X {args} -d {}/md",
            d.path().display()
        ))
        .ok();
    }
}

#[test]
fn a_short_file_is_an_error() {
    let d = shm();
    let base = format!("mdtest --tasks 1 -n 5 -F -G 1 -d {}/md", d.path().display());
    iogauge(&format!("{base} -C -w 10")).ok();
    let r = iogauge(&format!("{base} -E -e 20")).code(1);
    assert!(r.stdout.contains("(5 errors)"), "{}", r.stdout);
}
