//! Bad input ends with exit status 2 and a one-line message naming the option or path, before
//! anything is created.

use crate::common::{iogauge, shm, tree};

#[test]
fn refusals_touch_nothing() {
    let d = shm();
    let p = d.path();
    let o = p.join("out");
    let cases = [
        ("-L lat", "-L (--latency) is not supported"),
        ("--latency-all", "--latency-all is not supported"),
        ("--gpuDirect", "--gpuDirect is not supported"),
        (
            "-a MMAP",
            "-a MMAP: the MMAP engine has no metadata operations",
        ),
        ("--tasks 2 -w 5", "-w 5 without -W on 2 ranks"),
        ("--tasks 2 -I 5 -P 4", "-I 5 > -P 4"),
        ("-D 0", "-D 0: at least one data set"),
        ("-2", "--run-info-file"),
        (
            "--json /nonexistent-dir/r.json",
            "--json /nonexistent-dir/r.json",
        ),
    ];
    for (args, msg) in cases {
        let r = iogauge(&format!(
            "--no-store md-workbench -o {} --run-info-file {}/st {args}",
            o.display(),
            p.display()
        ))
        .code(2);
        assert!(
            r.stderr.starts_with("iogauge md-workbench: "),
            "{args}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(msg), "{args}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args}: {}", r.stderr);
        assert!(tree(p).is_empty(), "{args}: {:?}", tree(p));
    }
    let r = iogauge(&format!(
        "--no-store md-workbench -o {}/no/out",
        p.display()
    ))
    .code(2);
    assert!(r.stderr.contains("parent directory"), "{}", r.stderr);
}

#[test]
fn an_earlier_runs_data_sets_are_refused_or_reused() {
    let d = shm();
    let p = d.path();
    let args = format!(
        "--no-store md-workbench -o {}/out --run-info-file {}/st -P 2 -I 1 -D 2",
        p.display(),
        p.display()
    );
    iogauge(&format!("{args} -1")).ok();
    let before = tree(p);
    let r = iogauge(&format!("{args} -1")).code(2);
    assert!(
        r.stderr.contains("0_0: the data set exists already"),
        "{}",
        r.stderr
    );
    assert_eq!(tree(p), before);
    // --ignore-precreate-errors counts the failed mkdirs, as md-workbench does.
    let r = iogauge(&format!("{args} -1 --ignore-precreate-errors")).ok();
    assert!(r.stdout.contains(" (2 errs!!!)"), "{}", r.stdout);
    // The cleanup takes the objects and sets; -o stays, as the last precreate did not make it.
    iogauge(&format!("{args} -3")).ok();
    assert_eq!(tree(p), ["out", "st"]);
    // A file at a data set's name is never worked through.
    std::fs::write(p.join("out/0_1"), b"").unwrap();
    let r = iogauge(&format!("{args} -1 --ignore-precreate-errors")).code(2);
    assert!(r.stderr.contains("is a regular file"), "{}", r.stderr);
}

#[test]
fn a_dry_run_prints_the_plan_and_touches_nothing() {
    let d = shm();
    let p = d.path();
    let o = p.join("out");
    let r = iogauge(&format!(
        "md-workbench --tasks 2 -o {} -D 3 -P 20 -I 10 -R 2 -S 100 --run-info-file {}/st --dry-run",
        o.display(),
        p.display()
    ))
    .ok();
    assert!(r.stdout.contains("nothing is made"), "{}", r.stdout);
    assert!(r.stdout.contains("3 per rank, 6 in all"), "{}", r.stdout);
    // md-workbench's count: D * (I * R + P) * ranks = 3 * (10 * 2 + 20) * 2.
    assert!(
        r.stdout
            .contains("total objects (md-workbench's count): 240"),
        "{}",
        r.stdout
    );
    assert!(tree(p).is_empty(), "{:?}", tree(p));
}
