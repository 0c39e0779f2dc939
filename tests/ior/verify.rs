//! Data checks catch corruption, and the exit code says so.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;

use crate::common::{iogauge, shm};

pub(super) fn flip_byte(path: &std::path::Path, offset: u64) {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut b = [0u8; 1];
    f.read_exact_at(&mut b, offset).unwrap();
    b[0] ^= 0x01;
    f.write_all_at(&b, offset).unwrap();
}

#[test]
fn a_flipped_byte_in_a_kept_file_is_detected() {
    for packet in ["incompressible", "timestamp", "offset"] {
        let d = shm();
        let o = d.path().join("f");
        iogauge(&format!(
            "ior -N 2 -t 16k -b 64k -F -w -k -G 1234 -l {packet} -o {}",
            o.display()
        ))
        .ok();
        let victim = d.path().join("f.00000001");
        flip_byte(&victim, 40_000);
        let r = iogauge(&format!(
            "ior -N 2 -t 16k -b 64k -F -r -R -k -G 1234 -l {packet} -o {}",
            o.display()
        ))
        .code(1);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(
            all.contains("1 errors found") || all.contains("(1 error"),
            "{packet}: {all}"
        );
        assert!(
            all.contains("f.00000001") && all.contains("40000"),
            "{packet}: first bad file and offset: {all}"
        );
    }
}

#[test]
fn a_wrong_seed_fails_verification() {
    let d = shm();
    let o = d.path().join("s");
    iogauge(&format!("ior -t 8k -b 32k -w -k -G 1 -o {}", o.display())).ok();
    iogauge(&format!(
        "ior -t 8k -b 32k -r -R -k -G 2 -o {}",
        o.display()
    ))
    .code(1);
    iogauge(&format!(
        "ior -t 8k -b 32k -r -R -k -G 1 -o {}",
        o.display()
    ))
    .ok();
}

#[test]
fn write_check_reads_back() {
    let d = shm();
    let o = d.path().join("w");
    let r = iogauge(&format!(
        "ior -N 2 -t 8k -b 32k -s 2 -w -W -o {}",
        o.display()
    ))
    .ok();
    assert!(!r.stdout.contains("Incorrect data"));
}
