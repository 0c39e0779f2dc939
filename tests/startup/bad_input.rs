//! Refusals before any I/O: exit 2, one line naming the problem, nothing made.

use crate::common::{iogauge, listing, shm};

#[test]
fn bad_lines_are_refused_before_anything_is_made() {
    let d = shm();
    let p = d.path().display();
    std::fs::write(d.path().join("file"), b"x").unwrap();
    for (args, says) in [
        (format!("--dir {p} --bogus 1"), "unknown option --bogus"),
        (format!("--dir {p} --fiels 3"), "did you mean --files?"),
        (format!("--dir {p}/absent"), "--dir"),
        (format!("--dir {p}/file"), "not a directory"),
        (format!("--tree {p}/absent"), "--tree"),
        (
            format!("--tree {p} --common-file {p}"),
            "not a regular file",
        ),
        (format!("--dir {p} --stagger fast"), "is not a duration"),
        (format!("--dir {p} --common-size 1x"), "--common-size 1x"),
        ("--files 5".to_string(), "needs --dir"),
    ] {
        let r = iogauge(&format!("--no-store startup {args}")).code(2);
        assert!(r.stderr.contains(says), "{args}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args}: {}", r.stderr);
        assert_eq!(listing(d.path()), ["file"], "{args}");
    }
}

#[test]
fn a_run_directory_it_did_not_make_is_left_alone() {
    let d = shm();
    let run_dir = d.path().join("iogauge-startup");
    std::fs::create_dir(&run_dir).unwrap();
    std::fs::write(run_dir.join("precious"), b"keep").unwrap();
    let r = iogauge(&format!("--no-store startup --dir {}", d.path().display())).code(2);
    assert!(r.stderr.contains("exists already"), "{}", r.stderr);
    assert_eq!(listing(&run_dir), ["precious"]);
}
