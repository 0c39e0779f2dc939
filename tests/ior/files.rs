//! The files a run leaves: names, sizes and contents as IOR would leave them.

use std::fs;

use crate::common::{iogauge, json, listing, shm, tmp};

#[test]
fn file_per_process_names_and_sizes() {
    let d = shm();
    let o = d.path().join("testfile");
    iogauge(&format!(
        "ior -N 4 -a POSIX -t 64k -b 256k -s 4 -F -C -e -w -r -W -R -k -o {}",
        o.display()
    ))
    .ok();
    assert_eq!(
        listing(d.path()),
        [
            "testfile.00000000",
            "testfile.00000001",
            "testfile.00000002",
            "testfile.00000003"
        ]
    );
    for f in listing(d.path()) {
        assert_eq!(
            fs::metadata(d.path().join(f)).unwrap().len(),
            4 * 256 * 1024
        );
    }
}

#[test]
fn shared_file_holds_every_block_once() {
    let d = shm();
    let o = d.path().join("shared");
    let j = d.path().join("r.json");
    iogauge(&format!(
        "ior -N 3 -t 8k -b 32k -s 5 -w -r -R -k -G 77 -o {} --json {}",
        o.display(),
        j.display()
    ))
    .ok();
    assert_eq!(fs::metadata(&o).unwrap().len(), 3 * 5 * 32 * 1024);
    let doc = json(&j);
    let write = &doc["phases"][0];
    assert_eq!(write["operation"], "write");
    assert_eq!(write["bytes"], 3 * 5 * 32 * 1024);
    assert_eq!(write["ops"], 3 * 5 * 4);
    assert_eq!(doc["phases"][1]["verification"]["errors"], 0);
    assert_eq!(doc["phases"][1]["verification"]["checked_ops"], 60);
}

#[test]
fn ior_hard_pattern_verifies() {
    let d = shm();
    let o = d.path().join("file");
    iogauge(&format!(
        "ior -N 2 -t 47008 -b 47008 -s 200 -C -Q 1 -g -e -w -r -R -o {}",
        o.display()
    ))
    .ok();
    assert!(listing(d.path()).is_empty(), "files are removed without -k");
}

#[test]
fn unique_dirs_are_created_and_removed() {
    let d = tmp();
    let o = d.path().join("f");
    iogauge(&format!(
        "ior -N 2 -t 4k -b 16k -F -u -w -r -R -k -o {}",
        o.display()
    ))
    .ok();
    assert_eq!(listing(d.path()), ["0", "1"]);
    assert_eq!(listing(&d.path().join("1")), ["f.00000001"]);
    let d2 = tmp();
    let o = d2.path().join("f");
    iogauge(&format!(
        "ior -N 2 -t 4k -b 16k -F -u -w -r -o {}",
        o.display()
    ))
    .ok();
    assert!(listing(d2.path()).is_empty(), "{:?}", listing(d2.path()));
}

#[test]
fn multi_file_appends_the_repetition() {
    let d = shm();
    let o = d.path().join("m");
    iogauge(&format!("ior -t 4k -b 8k -i 2 -m -w -k -o {}", o.display())).ok();
    assert_eq!(listing(d.path()), ["m.0", "m.1"]);
}

#[test]
fn mmap_and_odirect_engines_round_trip() {
    let d = shm();
    let o = d.path().join("f");
    iogauge(&format!(
        "ior -N 2 -a MMAP -t 64k -b 1m -F -w -r -R -k -o {}",
        o.display()
    ))
    .ok();
    assert_eq!(
        fs::metadata(d.path().join("f.00000001")).unwrap().len(),
        1 << 20
    );
    // O_DIRECT needs a file system that supports it: /tmp (not tmpfs) usually does.
    let d = tmp();
    let o = d.path().join("out.dat");
    let r = iogauge(&format!(
        "ior -N 2 -a POSIX --posix.odirect -t 64k -b 256k -i 2 -e -F -w -r -R -o {}",
        o.display()
    ));
    if r.code != 0 && r.stderr.contains("Invalid argument") {
        eprintln!(
            "O_DIRECT not supported under {}: skipped",
            d.path().display()
        );
        return;
    }
    r.ok();
}

#[test]
fn random_offsets_cover_every_block() {
    let d = shm();
    let o = d.path().join("z");
    // -z on a shared file: each transfer slot written exactly once, verified by -R.
    iogauge(&format!(
        "ior -N 3 -t 4k -b 64k -s 3 -z --random-offset-seed 5 -w -r -R -k -G 3 -o {}",
        o.display()
    ))
    .ok();
    assert_eq!(fs::metadata(&o).unwrap().len(), 3 * 3 * 64 * 1024);
    // -z -z reads random blocks of the files that are there (file per process, so the blocks
    // of a file hold its own task's data and verify).
    let f = d.path().join("fpp");
    iogauge(&format!(
        "ior -N 3 -t 4k -b 64k -s 2 -F -w -k -G 3 -o {}",
        f.display()
    ))
    .ok();
    iogauge(&format!(
        "ior -N 3 -t 4k -b 4k -s 50 -F -z -z -r -R -G 3 -k -o {}",
        f.display()
    ))
    .ok();
    let r = iogauge(&format!(
        "ior -N 3 -t 4k -b 4k -s 50 -z -z -r -R -G 3 -k -o {}",
        o.display()
    ));
    assert_eq!(
        r.code, 2,
        "shared-file -z -z -R cannot verify and is refused"
    );
}

#[test]
fn reorder_reads_another_node_with_fake_nodes() {
    let d = shm();
    let o = d.path().join("c");
    let r = iogauge(&format!(
        "ior -N 4 --fake-nodes 2 -t 4k -b 16k -F -C -w -r -R -o {}",
        o.display()
    ))
    .ok();
    assert!(!r.stdout.contains("-C has no effect") && !r.stderr.contains("-C has no effect"));
    let r = iogauge(&format!(
        "ior -N 2 -t 4k -b 16k -F -C -w -r -R -o {}",
        o.display()
    ))
    .ok();
    assert!(r.stdout.contains("-C has no effect") || r.stderr.contains("-C has no effect"));
    for z in ["-Z", "-Z -Z"] {
        iogauge(&format!(
            "ior -N 4 -t 4k -b 16k -F {z} -X 9 -w -r -R -o {}",
            o.display()
        ))
        .ok();
    }
}

/// O_DIRECT in 1 KiB transfers where the file system takes them (a tmpfs: any alignment, its
/// O_DIRECT goes through memory), as tsqosperf's small-I/O latency reads do; the alignment a
/// file system does not take is refused before any I/O, naming where the figure comes from.
#[test]
fn odirect_takes_the_alignment_of_the_file_system() {
    let d = shm();
    let o = d.path().join("lat");
    let r = iogauge(&format!(
        "ior -a POSIX --posix.odirect -t 1k -b 64k -w -r -R -o {} --no-store",
        o.display()
    ));
    if r.code != 0 && r.stderr.contains("Invalid argument") {
        eprintln!("this kernel's tmpfs does not take O_DIRECT (Linux 6.6 and later): skipped");
    } else {
        r.ok();
    }
    // 512 bytes is the least any device takes: refused whatever the file system.
    let r = iogauge(&format!(
        "ior -a POSIX --posix.odirect -t 1000 -b 8000 -w -o {} --no-store",
        o.display()
    ))
    .code(2);
    assert!(r.stderr.contains("multiples of 512"), "{}", r.stderr);
    assert!(listing(d.path()).is_empty());
}
