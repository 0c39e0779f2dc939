//! The data sets and objects left after each phase, as md-workbench leaves them (listings of
//! md-workbench runs under `mpirun -np N` with the same options, and its run-info file).

use std::path::Path;

use crate::common::{iogauge, shm, tree};

/// Runs `iogauge md-workbench` with `args` on `-o <d>/out` and `--run-info-file <d>/st`.
fn mdwb(d: &Path, args: &str) {
    let out = d.join("out");
    let st = d.join("st");
    iogauge(&format!(
        "--no-store md-workbench {args} -o {} --run-info-file {}",
        out.display(),
        st.display()
    ))
    .ok();
}

fn pos(d: &Path) -> String {
    let text = std::fs::read_to_string(d.join("st")).unwrap();
    text.lines().next().unwrap().to_string()
}

/// `<rank>_<set>` and `<rank>_<set>/file-<i>` for every rank, set and index.
fn sets(ranks: u64, sets: u64, files: std::ops::Range<u64>) -> Vec<String> {
    let mut v = Vec::new();
    for r in 0..ranks {
        for s in 0..sets {
            v.push(format!("{r}_{s}"));
            v.extend(files.clone().map(|i| format!("{r}_{s}/file-{i}")));
        }
    }
    v.sort();
    v
}

#[test]
fn precreate_then_benchmarks_move_the_fifo() {
    // md-workbench -o out -P 4 -I 2 -D 3 -R 2 -1 -2 on 2 ranks: file-4 .. file-7 in every
    // set, `pos: 4`.
    let d = shm();
    mdwb(d.path(), "--tasks 2 -P 4 -I 2 -D 3 -R 2 -1 -2");
    assert_eq!(tree(&d.path().join("out")), sets(2, 3, 4..8));
    assert_eq!(pos(d.path()), "pos: 4");
    // md-workbench -P 3 -I 1 -D 2 -R 2 -O 2 -1 -2 on 3 ranks: file-2 .. file-4, `pos: 2`.
    let d = shm();
    mdwb(d.path(), "--tasks 3 -P 3 -I 1 -D 2 -R 2 -O 2 -1 -2");
    assert_eq!(tree(&d.path().join("out")), sets(3, 2, 2..5));
    assert_eq!(pos(d.path()), "pos: 2");
}

#[test]
fn split_phases_as_the_io500_runs_them() {
    // md-workbench on 2 ranks: -P 2 -I 2 -D 2 -1 leaves file-0, file-1 (`pos: 0`); a
    // --read-only benchmark changes nothing; -I 1 -R 3 moves on to file-3, file-4
    // (`pos: 3`); -3 removes everything, -o included. The same -G throughout, so that -X
    // checks the precreate's objects with the precreate's seed.
    let d = shm();
    let p = d.path();
    mdwb(p, "--tasks 2 -G 5 -P 2 -I 2 -D 2 -R 1 -1");
    assert_eq!(tree(&p.join("out")), sets(2, 2, 0..2));
    assert_eq!(pos(p), "pos: 0");
    mdwb(p, "--tasks 2 -G 5 -P 2 -I 2 -D 2 -R 1 -2 --read-only -X");
    assert_eq!(tree(&p.join("out")), sets(2, 2, 0..2));
    assert_eq!(pos(p), "pos: 0");
    mdwb(p, "--tasks 2 -G 5 -P 2 -I 1 -D 2 -R 3 -2 -X");
    assert_eq!(tree(&p.join("out")), sets(2, 2, 3..5));
    assert_eq!(pos(p), "pos: 3");
    mdwb(p, "--tasks 2 -P 2 -I 1 -D 2 -3");
    assert!(!p.join("out").exists());
    assert_eq!(
        tree(p),
        ["st"],
        "the run-info file stays, as md-workbench's"
    );
}

#[test]
fn the_cleanup_leaves_what_the_run_did_not_make() {
    // -o existed before the run, and holds a file of the user's: both stay; every object and
    // data set of the run goes.
    let d = shm();
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("keep"), b"x").unwrap();
    mdwb(d.path(), "--tasks 2 -P 3 -I 1 -D 2 -R 2");
    assert_eq!(tree(&out), ["keep"]);
    // A file put into a data set stays, with it and a warning.
    std::fs::remove_file(out.join("keep")).unwrap();
    mdwb(d.path(), "--tasks 1 -P 2 -I 1 -D 1 -R 1 -1");
    std::fs::write(out.join("0_0/mine"), b"x").unwrap();
    let r = iogauge(&format!(
        "--no-store md-workbench -P 2 -I 1 -D 1 -3 -o {} --run-info-file {}",
        out.display(),
        d.path().join("st").display()
    ))
    .ok();
    assert!(
        r.stdout.contains("WARNING: Unable to remove directory"),
        "{}",
        r.stdout
    );
    assert_eq!(tree(&out), ["0_0", "0_0/mine"]);
}
